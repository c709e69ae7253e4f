import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { useSystem } from './support/use-system';

/** Debian's chromium (`apt-get install chromium`); CHROMIUM_PATH names another. Never a browser download. */
const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const screenshot = join(__dirname, '..', 'test-output', 'docs', 'docs-page.png');

/** Embedded mode only: the page and the document are the gateway's own, whatever runs behind it. */
describe('The docs page (/docs) in a headless Chromium', () => {
  const sys = useSystem('embedded');
  let browser: Browser;

  beforeAll(async () => {
    if (!existsSync(chromiumPath)) throw new Error(`No chromium at ${chromiumPath}: install Debian's (apt-get install chromium) or set CHROMIUM_PATH`);
    browser = await chromium.launch({ executablePath: chromiumPath, args: ['--headless', '--no-sandbox', '--disable-gpu'] });
  }, 60_000);
  afterAll(() => browser?.close());

  it('renders every documented operation from local files alone, without a policy violation', async () => {
    const document = (await sys.api.get('/openapi.json')).json() as { paths: Record<string, Record<string, unknown>> };
    const paths = Object.keys(document.paths);
    const operations = paths.flatMap((path) => Object.keys(document.paths[path]!).map((method) => `${method.toUpperCase()} ${path}`));

    const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
    const problems: string[] = [];
    const foreign: string[] = [];
    const origin = new URL(sys.api.baseUrl).origin;
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(message.text());
    });
    page.on('response', (response) => {
      if (response.status() >= 400) problems.push(`${response.status()} ${response.url()}`);
    });
    page.on('pageerror', (error) => problems.push(error.message));
    // A request the policy blocks fails before it leaves; anything another origin answered did leave.
    page.on('requestfinished', (request) => {
      const url = new URL(request.url());
      if (url.protocol.startsWith('http') && url.origin !== origin) foreign.push(request.url());
    });
    page.on('requestfailed', (request) => {
      const url = new URL(request.url());
      if (url.origin !== origin && !/^(net::ERR_BLOCKED_BY_CSP|csp)$/.test(request.failure()?.errorText ?? '')) foreign.push(`${request.url()} (${request.failure()?.errorText})`);
    });

    const res = await page.goto(`${sys.api.baseUrl}/docs`);
    expect(res?.status()).toBe(200);
    expect(res?.headers()['content-security-policy']).toMatch(/default-src 'none'/);
    // Redoc shows one endpoint box per operation: its method and its path.
    await page.waitForSelector('[data-section-id^="operation/"]', { timeout: 30_000 });
    const rendered = await page.$$eval('[data-section-id^="operation/"]', (sections) => sections.map((section) => section.textContent ?? ''));
    const endpoints = rendered.join('\n');

    expect(rendered.length).toBe(operations.length);
    expect(paths.filter((path) => !endpoints.includes(path))).toEqual([]);
    expect(await page.title()).toBe('Formcast API reference');
    // The heading names the release, not a made-up "1", and the product the API is compatible with.
    const release = (require('../services/gateway/package.json') as { version: string }).version;
    expect(await page.locator('h1').first().textContent()).toBe(`Formcast API (${release})`);
    expect(await page.getByText('Device Magic', { exact: false }).count()).toBeGreaterThan(0);
    expect(problems).toEqual([]);
    expect(foreign).toEqual([]);

    mkdirSync(join(screenshot, '..'), { recursive: true });
    await page.screenshot({ path: screenshot });
    await page.close();
  }, 90_000);

  it('serves the Redoc bundle from node_modules and the document without credentials', async () => {
    const bundle = await sys.api.get('/docs/redoc.standalone.js');
    expect(bundle.status).toBe(200);
    expect(bundle.headers.get('content-type')).toMatch(/^text\/javascript/);
    expect(bundle.text.length).toBeGreaterThan(500_000);
    expect((await sys.api.get('/openapi.json')).status).toBe(200);
  });
});
