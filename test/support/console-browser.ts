import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

const repoRoot = join(__dirname, '../..');
const consoleRoot = join(repoRoot, 'services/console');
const builtPage = join(consoleRoot, 'dist/index.html');
const lockDir = join(repoRoot, 'test-output/console-build.lock');

/** Debian's chromium (`apt-get install chromium`); CHROMIUM_PATH names another. Never a browser download. */
export const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Where each browser test leaves its screenshot (git ignores test-output/). */
export const screenshotDir = join(repoRoot, 'test-output/console');

function newestSourceTime(path: string): number {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(stat.mtimeMs, ...readdirSync(path).map((name) => newestSourceTime(join(path, name))));
}

function consoleIsStale(): boolean {
  if (!existsSync(builtPage)) return true;
  const sources = ['src', 'index.html', 'vite.config.mts', 'package.json', 'tsconfig.json'].map((p) => newestSourceTime(join(consoleRoot, p)));
  return Math.max(...sources) > statSync(builtPage).mtimeMs;
}

/**
 * Builds the console (`npm run build -w @formcast/console`) when dist/ is missing or older
 * than its sources, under a lock directory so two jest workers do not build at once. Call
 * it before the system starts: the gateway looks for the build when its app is made.
 */
export async function ensureConsoleBuilt(): Promise<void> {
  if (!consoleIsStale()) return;
  const deadline = Date.now() + 3 * 60_000;
  mkdirSync(join(lockDir, '..'), { recursive: true });
  for (;;) {
    try {
      mkdirSync(lockDir);
      break;
    } catch {
      if (Date.now() > deadline) throw new Error(`Waited 3 minutes for the console's build lock ${lockDir}`);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
  try {
    if (!consoleIsStale()) return;
    const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
    const result = spawnSync(npm, ['run', 'build', '-w', '@formcast/console'], { cwd: repoRoot, encoding: 'utf8' });
    if (result.status !== 0) throw new Error(`Building the console failed:\n${result.stdout}${result.stderr}`);
  } finally {
    rmSync(lockDir, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
  }
}

export async function launchChromium(): Promise<Browser> {
  if (!existsSync(chromiumPath)) {
    throw new Error(`No chromium at ${chromiumPath}: install Debian's (apt-get install chromium) or set CHROMIUM_PATH`);
  }
  return chromium.launch({ executablePath: chromiumPath, headless: true, args: ['--headless', '--no-sandbox', '--disable-gpu'] });
}

/**
 * A page in a context of its own (its own sessionStorage), collecting CSP violations
 * reported on the console, and every console error and uncaught page error.
 */
export async function openPage(
  browser: Browser,
  viewport = { width: 1280, height: 900 },
): Promise<{ context: BrowserContext; page: Page; cspViolations: string[]; consoleErrors: string[] }> {
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  const cspViolations: string[] = [];
  const consoleErrors: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) cspViolations.push(message.text());
    if (message.type() === 'error') consoleErrors.push(`${page.url()}: ${message.text()}`);
  });
  page.on('pageerror', (error) => consoleErrors.push(`${page.url()}: ${error.message}`));
  return { context, page, cspViolations, consoleErrors };
}

export async function saveScreenshot(page: Page, name: string): Promise<string> {
  mkdirSync(screenshotDir, { recursive: true });
  const path = join(screenshotDir, `${name}.png`);
  await page.screenshot({ path, fullPage: true });
  return path;
}
