import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import type { Browser, Page } from 'playwright-core';
import { waitFor } from '@formcast/testing';
import { ensureConsoleBuilt, launchChromium, openPage, saveScreenshot } from './support/console-browser';
import { enrollDevice, type TestOrganization } from './support/fixtures';
import { httpDestinationBody, makeDestination } from './support/delivery-fixtures';
import { createTemplate, type TestTemplate } from './support/push-fixtures';
import { consoleStatic } from '../services/gateway/src/http/console-static';
import { useSystem } from './support/use-system';
import { answers, WebhookReceiver } from './support/webhook-receiver';
import { xlsxWorkbook } from './fixtures/resource-files';

// The browser's globals, as the functions given to page.evaluate (run in the page) use them;
// the tests' type-check has no DOM library.
declare const sessionStorage: { getItem(key: string): string | null };
declare const localStorage: { length: number };
interface PageElement {
  tagName: string;
  className: string;
  closest(selector: string): PageElement | null;
  getBoundingClientRect(): { right: number };
}
declare const document: {
  cookie: string;
  documentElement: { scrollWidth: number };
  querySelectorAll(selector: string): Iterable<PageElement>;
  createRange(): { selectNodeContents(node: unknown): void; getClientRects(): Iterable<{ top: number }> };
};

/** A form with questions of the types the dispatch page turns into different inputs. */
const visitForm = {
  type: 'root',
  title: 'Site visit',
  children: [
    { identifier: 'customer_name', title: 'Customer', type: 'text' },
    { identifier: 'visits', title: 'Visits', type: 'integer' },
    { identifier: 'urgent', title: 'Urgent', type: 'boolean' },
    { identifier: 'due', title: 'Due', type: 'date' },
    { identifier: 'status', title: 'Status', type: 'select1', options: [{ value: 'open' }, { value: 'closed' }] },
  ],
};

/** The policy issue 18 asks for, word for word. */
const consoleContentSecurityPolicy =
  "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'";

// A browser on two cores shared with other suites: generous, never tight.
jest.setTimeout(90_000);

// Built before the system starts: the gateway looks for the console's files when it starts.
beforeAll(() => ensureConsoleBuilt(), 180_000);

describe('The console, /console, in a real browser (embedded)', () => {
  const sys = useSystem('embedded', { organizations: 1, template: visitForm, env: { DELIVERY_ALLOW_PRIVATE_NETWORKS: 'true' } });
  let browser: Browser;
  let baseUrl: string;

  beforeAll(async () => {
    browser = await launchChromium();
    baseUrl = sys.api.baseUrl;
  }, 60_000);
  afterAll(() => browser?.close());

  async function signedIn(org: TestOrganization = sys.org, viewport?: { width: number; height: number }) {
    const opened = await openPage(browser, viewport);
    await signIn(opened.page, org);
    return opened;
  }

  async function signIn(page: Page, org: TestOrganization, token = org.token) {
    await page.goto(`${baseUrl}/console/`);
    await page.getByLabel('Organization id').fill(String(org.orgId));
    await page.getByLabel('API token').fill(token);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('navigation', { name: 'Console' }).waitFor();
  }

  async function goTo(page: Page, link: string, heading: string) {
    await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: link }).click();
    await page.getByRole('heading', { level: 1, name: heading }).waitFor();
  }

  it('serves the page with its content-security-policy and no inline script', async () => {
    const redirect = await fetch(`${baseUrl}/console`, { redirect: 'manual' });
    expect([301, 302, 308]).toContain(redirect.status);
    expect(redirect.headers.get('location')).toBe('/console/');

    const res = await fetch(`${baseUrl}/console/`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(res.headers.get('content-security-policy')).toBe(consoleContentSecurityPolicy);
    const html = await res.text();
    const scripts = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)];
    expect(scripts.length).toBeGreaterThan(0);
    for (const [, attributes, body] of scripts) {
      expect(attributes).toMatch(/\bsrc="\/console\/assets\/[^"]+\.js"/);
      expect(body!.trim()).toBe('');
    }
    expect(html).not.toMatch(/<style\b/i);
    expect(html).not.toMatch(/\son[a-z]+\s*=/i);
    expect(html).not.toMatch(/https?:\/\//);

    const script = scripts[0]![1]!.match(/src="([^"]+)"/)![1]!;
    const asset = await fetch(`${baseUrl}${script}`);
    expect(asset.status).toBe(200);
    expect(asset.headers.get('content-type')).toMatch(/javascript/);
    expect(asset.headers.get('content-security-policy')).toBe(consoleContentSecurityPolicy);
    expect((await fetch(`${baseUrl}/console/no-such-file.js`)).status).toBe(404);

    // The browser runs it under that policy without a single violation.
    const { page, context, cspViolations } = await openPage(browser);
    const failed: string[] = [];
    page.on('response', (response) => {
      if (response.status() >= 400) failed.push(`${response.status()} ${response.url()}`);
    });
    await page.goto(`${baseUrl}/console/`);
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    await saveScreenshot(page, 'csp-sign-in-page');
    expect(cspViolations).toEqual([]);
    expect(await page.title()).toBe('Sign in · Formcast console');
    expect(failed).toEqual([]); // the favicon too
    expect((await fetch(`${baseUrl}/console/favicon.svg`)).status).toBe(200);
    await context.close();
  });

  it('signs in with the organization id and API token, kept in the tab session only', async () => {
    const { page, context } = await openPage(browser);
    await page.goto(`${baseUrl}/console/`);
    await page.getByLabel('Organization id').fill(String(sys.org.orgId));
    await page.getByLabel('API token').fill('not-a-token');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('alert').filter({ hasText: 'That API token was refused' }).waitFor();

    // Keyboard only: type, then Enter submits.
    await page.getByLabel('API token').fill(sys.org.token);
    await page.getByLabel('API token').press('Enter');
    await page.getByRole('heading', { level: 1, name: 'Devices' }).waitFor();
    await page.getByText('No device is waiting for approval.').waitFor();

    const storage = await page.evaluate(() => ({
      session: sessionStorage.getItem('formcast.console.session'),
      local: localStorage.length,
      cookie: document.cookie,
    }));
    expect(JSON.parse(storage.session!)).toEqual({ orgId: sys.org.orgId, token: sys.org.token });
    expect(storage.local).toBe(0);
    expect(storage.cookie).toBe('');
    expect(await context.cookies()).toEqual([]);
    await saveScreenshot(page, 'sign-in');
    await context.close();
  });

  it('approves a pending device, which then shows its groups and badge', async () => {
    const device = await enrollDevice(sys.api, sys.org, { identifier: 'Android_console_pending', owner: 'Grace', approve: false });
    const { page, context } = await signedIn();
    const pending = page.getByRole('list', { name: 'Devices waiting for approval' });
    await pending.getByText('Android_console_pending').waitFor();
    await saveScreenshot(page, 'devices-pending');

    // With the keyboard: focus the button, press Enter.
    await page.getByRole('button', { name: 'Approve Android_console_pending' }).focus();
    await page.keyboard.press('Enter');
    await page.getByRole('status').filter({ hasText: 'Android_console_pending is approved.' }).waitFor();

    const row = page.locator('tr[data-device="Android_console_pending"]');
    await row.waitFor();
    expect(await row.locator('td').nth(2).textContent()).toBe('Default');
    expect(await row.locator('.badge-cell').textContent()).toBe('0');
    expect(await row.locator('.push-token-cell').textContent()).toBe('No');
    const listed = await sys.api.get(`/api/v2/organizations/${sys.org.orgId}/devices/${device.id}.json`, { token: sys.org.token });
    expect(listed.json().pending_approval).toBe(false);
    await saveScreenshot(page, 'devices-approved');
    await context.close();
  });

  it('shows whether each approved device has a push token, Yes or No', async () => {
    const withToken = await enrollDevice(sys.api, sys.org, { identifier: 'Android_console_push_token' });
    const registered = await sys.api.put('/device/push_token', { bearer: withToken.secret, json: { push_token: 'fcm-console-token' } });
    expect(registered.status).toBe(200);
    await enrollDevice(sys.api, sys.org, { identifier: 'Android_console_no_push_token' });
    const { page, context } = await signedIn();
    const cell = (identifier: string) => page.locator(`tr[data-device="${identifier}"] .push-token-cell`);
    await cell('Android_console_push_token').waitFor();
    expect(await cell('Android_console_push_token').textContent()).toBe('Yes');
    expect(await cell('Android_console_no_push_token').textContent()).toBe('No');
    expect(await page.getByRole('table', { name: 'Approved devices' }).textContent()).not.toContain('fcm-console-token');
    await context.close();
  });

  it('dispatches a form with values, which appears in the outstanding list at once', async () => {
    const device = await enrollDevice(sys.api, sys.org, { identifier: 'Android_console_dispatch' });
    const { page, context } = await signedIn();
    await goTo(page, 'Dispatch', 'Dispatch a form');
    await page.getByLabel('Device', { exact: true }).selectOption({ label: 'Android_console_dispatch (Field Tech)' });
    await page.getByLabel('Form', { exact: true }).selectOption({ label: 'Site visit (v1.00)' });
    await page.getByLabel(/^Customer/).fill('Acme');
    await page.getByLabel(/^Visits/).fill('3');
    await page.getByLabel(/^Urgent/).selectOption('true');
    await page.getByLabel(/^Due/).fill('2030-05-04');
    await page.getByLabel(/^Status/).selectOption('open');
    await page.getByRole('button', { name: 'Send' }).click();
    const sent = page.getByRole('status').filter({ hasText: /Dispatch #\d+ “Site visit” was sent to Android_console_dispatch/ });
    await sent.waitFor();
    await saveScreenshot(page, 'dispatch-sent');
    const id = Number((await sent.textContent())!.match(/#(\d+)/)![1]);

    const read = await sys.api.get(`/api/v3/dispatches/${id}.json?include_inputs=true`, { token: sys.org.token });
    expect(read.json()).toMatchObject({
      device_id: device.id,
      inputs: { customer_name: 'Acme', visits: '3', urgent: 'true', due: '2030-05-04', status: 'open' },
    });

    // Scheduled an hour ahead: listed with its time, not yet on the device.
    await page.getByLabel('Schedule it').check();
    const inAnHour = new Date(Date.now() + 3_600_000);
    const local = new Date(inAnHour.getTime() - inAnHour.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
    await page.getByLabel('Send at (your local time)').fill(local);
    await page.getByRole('button', { name: 'Schedule' }).click();
    const scheduled = page.getByRole('status').filter({ hasText: /is scheduled for/ });
    await scheduled.waitFor();
    const scheduledId = Number((await scheduled.textContent())!.match(/#(\d+)/)![1]);
    const onDevice = await sys.api.get('/device/oneshots', { bearer: device.secret });
    expect(onDevice.json().oneshots.map((o: { id: number }) => o.id)).toEqual([id]);

    await page.getByRole('link', { name: 'See the outstanding work' }).click();
    await page.locator(`tr[data-dispatch="${id}"]`).waitFor();
    const scheduledRow = page.locator(`tr[data-dispatch="${scheduledId}"]`);
    await scheduledRow.waitFor();
    expect(await scheduledRow.locator('td').nth(4).textContent()).not.toBe('at once');
    await saveScreenshot(page, 'outstanding-after-dispatch');

    // Revoked from the page: gone from the page and from the API's outstanding list.
    await scheduledRow.getByRole('button', { name: `Revoke dispatch ${scheduledId}` }).click();
    await scheduledRow.waitFor({ state: 'detached' });
    const outstanding = await sys.api.get('/api/v3/organization_dispatches.json', { token: sys.org.token });
    const ids = outstanding.json().dispatches.map((d: { id: number }) => d.id);
    expect(ids).toContain(id);
    expect(ids).not.toContain(scheduledId);
    await context.close();
  });

  it('shows a submission made on the device side leaving the outstanding list (by itself) and under submissions', async () => {
    const device = await enrollDevice(sys.api, sys.org, { identifier: 'Android_console_submit' });
    const created = await sys.api.post(`/api/v3/devices/${device.identifier}/dispatches.json`, {
      token: sys.org.token,
      json: { form_namespace: sys.template.namespace, form_name: 'Visit Initech', payload: { customer_name: 'Initech' } },
    });
    const dispatchId: number = created.json().dispatch.id;

    const { page, context } = await signedIn();
    await goTo(page, 'Outstanding work', 'Outstanding work');
    await page.getByLabel('Show').selectOption({ label: 'Android_console_submit (1)' });
    const row = page.locator(`tr[data-dispatch="${dispatchId}"]`);
    await row.waitFor();
    await saveScreenshot(page, 'outstanding-per-device');

    const submitted = await sys.api.post(`/device/oneshots/${dispatchId}/submission`, {
      bearer: device.secret,
      json: { answers: { customer_name: { value: 'Initech Ltd' }, visits: { value: '2' } } },
    });
    expect(submitted.status).toBeLessThan(300);
    // No reload, no click: the page polls.
    await row.waitFor({ state: 'detached', timeout: 20_000 });
    await page.getByText('Nothing outstanding.').waitFor();

    await goTo(page, 'Submissions', 'Submissions');
    await page.getByLabel('Form', { exact: true }).selectOption({ label: 'Site visit (v1.00)' });
    const card = page.locator('li.submission').filter({ hasText: 'Android_console_submit' });
    await card.waitFor();
    expect(await card.textContent()).toContain('Initech Ltd');
    expect(await card.locator('dt', { hasText: 'visits' }).locator('xpath=../dd').textContent()).toBe('2');
    await saveScreenshot(page, 'submissions');
    await context.close();
  });

  it('marks a failing destination with its attempts, and redelivers from the page', async () => {
    const receiver = await WebhookReceiver.start();
    try {
      const form: TestTemplate = await createTemplate(sys.api, sys.org, { type: 'root', title: 'Meter reading', children: [{ identifier: 'reading', title: 'Reading', type: 'integer' }] });
      const uri = receiver.script('/hook', answers.status(500, 'database down'));
      const destination = await makeDestination(sys.api, sys.org, form.id, httpDestinationBody(uri, { description: 'Billing CRM' }));
      const device = await enrollDevice(sys.api, sys.org, { identifier: 'Android_console_meter' });
      const submitted = await sys.api.post(`/device/forms/${form.id}/submissions`, { bearer: device.secret, json: { answers: { reading: '42' } } });
      expect(submitted.status).toBe(201);
      // The first attempt at once, the second 5 s later; the next only after 5 minutes.
      await waitFor(() => receiver.received('/hook').length >= 2, { timeoutMs: 30_000, description: 'two failed attempts' });

      const { page, context } = await signedIn();
      await goTo(page, 'Destinations', 'Destinations');
      const card = page.locator(`li[data-destination="${destination.id}"]`);
      await card.getByText('Failing: answered 500').waitFor();
      expect(await card.getAttribute('class')).toContain('destination-failing');
      const attempts = card.locator('ol.attempts li');
      await waitFor(async () => (await attempts.count()) === 2, { timeoutMs: 15_000, description: 'two attempts listed' });
      expect(await attempts.first().textContent()).toContain('500');
      expect(await card.locator('td').nth(3).textContent()).not.toBe('—'); // the next retry's time
      await saveScreenshot(page, 'destination-failing');
      // At 1280 px no button's label wraps onto a second line ("Redeliv|er" did).
      const wrappedLabels = await page.$$eval('main button', (buttons) =>
        buttons.filter((button) => {
          const range = document.createRange();
          range.selectNodeContents(button);
          return new Set([...range.getClientRects()].map((rect) => Math.round(rect.top))).size > 1;
        }).map((button) => button.textContent),
      );
      expect(wrappedLabels).toEqual([]);

      receiver.script('/hook', answers.ok());
      await card.getByRole('button', { name: /^Redeliver delivery / }).click();
      await card.getByRole('status').filter({ hasText: /is queued to be sent again/ }).waitFor();
      await card.locator('td.status-succeeded').waitFor({ timeout: 20_000 });
      await card.getByText('Delivering').waitFor();
      expect(receiver.received('/hook')).toHaveLength(3);
      expect(await attempts.count()).toBe(3);
      await saveScreenshot(page, 'destination-redelivered');
      await context.close();
    } finally {
      await receiver.close();
    }
  });

  it('uploads a resource with a progress bar, downloads it and shows its spreadsheet summary', async () => {
    const workbook = await xlsxWorkbook([{ name: 'Parts', rows: [['part_no', 'price'], ['A-1', 3]] }]);
    const { page, context } = await signedIn();
    await goTo(page, 'Resources', 'Resources');
    await page.getByText('No resource yet.').waitFor();
    await page.getByLabel(/^File/).setInputFiles({ name: 'parts.xlsx', mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', buffer: workbook });
    await page.getByLabel('Description').fill('Parts list');
    await page.getByRole('button', { name: 'Upload' }).click();
    await page.getByRole('status').filter({ hasText: 'parts.xlsx is uploaded.' }).waitFor();
    expect(await page.locator('progress').evaluate((bar) => (bar as unknown as { value: number }).value)).toBe(1);
    const row = page.locator('tr[data-resource]').filter({ hasText: 'parts.xlsx' });
    await row.waitFor();

    const [download] = await Promise.all([page.waitForEvent('download'), row.getByRole('button', { name: 'Download parts.xlsx' }).click()]);
    expect(download.suggestedFilename()).toBe('parts.xlsx');
    const path = await download.path();
    const { readFileSync } = await import('node:fs');
    expect(readFileSync(path).equals(workbook)).toBe(true);

    await row.getByRole('button', { name: 'Summary of parts.xlsx' }).click();
    const summary = page.getByRole('table', { name: 'Spreadsheet summary' });
    await summary.waitFor();
    expect(await summary.locator('tbody tr').first().textContent()).toContain('1. part_no, 2. price');
    await saveScreenshot(page, 'resources');
    await context.close();
  });

  it('shows every page, each left as a screenshot, with no console error or page error on any', async () => {
    const { page, context, consoleErrors } = await openPage(browser);
    await page.goto(`${baseUrl}/console/`);
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    await saveScreenshot(page, 'page-sign-in');
    await signIn(page, sys.org);
    const pages = [
      ['Devices', 'Devices'],
      ['Dispatch', 'Dispatch a form'],
      ['Outstanding work', 'Outstanding work'],
      ['Submissions', 'Submissions'],
      ['Destinations', 'Destinations'],
      ['Resources', 'Resources'],
    ] as const;
    for (const [link, heading] of pages) {
      await goTo(page, link, heading);
      await page.locator('.loading').waitFor({ state: 'detached' });
      expect(await page.title()).toBe(`${link} · Formcast console`);
      await saveScreenshot(page, `page-${link.toLowerCase().replace(/ /g, '-')}`);
    }
    expect(consoleErrors).toEqual([]);
    await context.close();
  });

  it('is readable at phone width (390 px): no sideways scrolling of the page', async () => {
    // Something in every list, long names included.
    const device = await enrollDevice(sys.api, sys.org, { identifier: 'Android_console_phone_with_a_rather_long_identifier' });
    await enrollDevice(sys.api, sys.org, { identifier: 'Android_console_phone_pending', approve: false });
    await sys.api.post(`/api/v3/devices/${device.identifier}/dispatches.json`, {
      token: sys.org.token,
      json: { form_namespace: sys.template.namespace, form_name: 'Quarterly inspection of the north-east loading bay', payload: {} },
    });
    const { page, context } = await signedIn(sys.org, { width: 390, height: 844 });
    for (const [link, heading] of [
      ['Devices', 'Devices'],
      ['Dispatch', 'Dispatch a form'],
      ['Outstanding work', 'Outstanding work'],
      ['Destinations', 'Destinations'],
    ] as const) {
      await goTo(page, link, heading);
      await page.locator('.loading').waitFor({ state: 'detached' });
      // What sticks out, named in the failure: the widest elements past the screen's edge.
      const overflow = await page.evaluate(() => ({
        width: document.documentElement.scrollWidth,
        past: [...document.querySelectorAll('body *')]
          .filter((e) => e.getBoundingClientRect().right > 391 && !e.closest('.table-wrap'))
          .slice(0, 5)
          .map((e) => `${e.tagName.toLowerCase()}.${e.className}: ${Math.round(e.getBoundingClientRect().right)}px`),
      }));
      expect({ page: link, ...overflow }).toEqual({ page: link, width: 390, past: [] });
      await saveScreenshot(page, `phone-${link.toLowerCase().replace(/ /g, '-')}`);
    }
    await context.close();
  });

  it('returns to the sign-in, with a message, once its token is revoked', async () => {
    const issued = await sys.api.post(`/admin/organizations/${sys.org.orgId}/tokens`, { bearer: sys.adminToken, json: { label: 'console' } });
    const { id, api_token: token } = issued.json();
    const { page, context } = await openPage(browser);
    await signIn(page, sys.org, token);
    await page.getByRole('heading', { level: 1, name: 'Devices' }).waitFor();
    // Idle: no call of the page in flight when the token goes.
    await page.locator('.loading').waitFor({ state: 'detached' });

    const revoked = await sys.api.delete(`/admin/organizations/${sys.org.orgId}/tokens/${id}`, { bearer: sys.adminToken });
    expect(revoked.status).toBe(200);
    // The next call the page makes is refused: it shows the sign-in again.
    await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Outstanding work' }).click();
    await page.getByRole('status').filter({ hasText: 'the API token was refused' }).waitFor();
    await page.getByLabel('API token').waitFor();
    expect(await page.evaluate(() => sessionStorage.getItem('formcast.console.session'))).toBeNull();
    await saveScreenshot(page, 'revoked-token');
    await context.close();
  });
});

describe('The console without a build', () => {
  it('answers 503 saying how to build it, under the same policy', async () => {
    const app = express();
    app.use('/console', consoleStatic(null));
    const server = createServer(app);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/console/`);
      expect(res.status).toBe(503);
      expect(await res.text()).toContain('npm run build');
      expect(res.headers.get('content-security-policy')).toBe(consoleContentSecurityPolicy);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
