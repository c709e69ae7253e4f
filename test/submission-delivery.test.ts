import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import pino from 'pino';
import { Webhook } from 'standardwebhooks';
import type { Bus } from '@formcast/bus';
import type { DeliveryView } from '@formcast/contracts';
import { startDelivery, startDeliveryService } from '@formcast/delivery';
import { serviceStarters } from '@formcast/embedded';
import type { ServiceStarter } from '@formcast/platform';
import { uniqueName, waitFor } from '@formcast/testing';
import type { ApiClient } from './support/api-client';
import { createOrganization, enrollDevice, type TestDevice, type TestOrganization } from './support/fixtures';
import { deliveryLog, httpDestinationBody, makeDestination, submitThroughPush } from './support/delivery-fixtures';
import { createTemplate, pushJson, type TestTemplate } from './support/push-fixtures';
import { ensureBuilt, processNameOf, startDistributed } from './support/start-distributed';
import { amqpUrl, startSystem, systemModes, type RunningSystem, type SystemMode } from './support/start-system';
import { useSystem } from './support/use-system';
import { answerBodyPattern, answers, downReceiverUrl, WebhookReceiver, type ReceivedWebhook } from './support/webhook-receiver';

/** Short, so a slow receiver times out at once; local receivers answer in a few ms. */
const deliveryTimeoutMs = 1500;
/** The first retry comes 5 s after the first attempt (± 10% jitter): see the delivery service's retry schedule. */
const firstRetryMs = 5000;
// Room for the first attempt and the retry on a busy machine.
const retryWait = { timeoutMs: firstRetryMs * 1.1 + 15_000, intervalMs: 100 };

/** A template of text questions, by identifier. */
const textForm = (title: string, ...questions: string[]) => ({
  type: 'root',
  title,
  children: questions.map((identifier) => ({ identifier, title: identifier, type: 'text' })),
});
const inspection = textForm('Site inspection', 'customer_name', 'comments');
const followUp = textForm('Follow-up visit', 'client', 'notes');

interface Destination {
  id: number;
  formId: number;
  secret: string;
}

// Tests that wait for a retry (5 s after the first attempt) need room on a busy machine.
jest.setTimeout(60_000);

describe.each(systemModes)('Submissions reach their destinations (%s)', (mode) => {
  const sys = useSystem(mode, {
    organizations: 1,
    env: { DELIVERY_ALLOW_PRIVATE_NETWORKS: 'true', DELIVERY_TIMEOUT_MS: String(deliveryTimeoutMs) },
  });
  let receiver: WebhookReceiver;
  let device: TestDevice;
  let paths = 0;

  beforeAll(async () => {
    receiver = await WebhookReceiver.start();
    device = await enrollDevice(sys.api, sys.org, { owner: 'Ada' });
  });
  afterAll(() => receiver?.close());

  const newPath = () => `/hooks/${mode}/${(paths += 1)}`;

  async function httpDestination(form: TestTemplate, uri: string, format: 'json_format' | 'xml_format' = 'json_format'): Promise<Destination> {
    const { id, secret } = await makeDestination(sys.api, sys.org, form.id, httpDestinationBody(uri, { format, headers: { 'X-Api-Key': 'k-123' } }));
    return { id, formId: form.id, secret };
  }

  /** Pushes `form` to the device and submits it with these answers, as the device app does. */
  function submit(form: TestTemplate, values: Record<string, string>, by: TestDevice = device): Promise<void> {
    return submitThroughPush(sys.api, sys.org, by, form.namespace, values);
  }

  function deliveries(destination: Destination): Promise<DeliveryView[]> {
    return deliveryLog(sys.api, sys.org, destination.formId, destination.id);
  }

  /** The destination's only delivery, once `done` says it has come far enough. */
  async function waitForDelivery(destination: Destination, done: (delivery: DeliveryView) => boolean, options = { timeoutMs: 10_000 }): Promise<DeliveryView> {
    return waitFor(
      async () => {
        const [delivery, ...others] = await deliveries(destination);
        expect(others).toEqual([]);
        return delivery && done(delivery) ? delivery : undefined;
      },
      { intervalMs: 50, description: `delivery to destination ${destination.id}`, ...options },
    );
  }

  async function destinationView(destination: Destination) {
    return (await sys.api.get(`/api/forms/${destination.formId}/destinations/${destination.id}.json`, { token: sys.org.token })).json().destination;
  }

  /** What `path` received, once at least `count` requests have come. */
  function arrivals(path: string, count: number, options: { timeoutMs?: number; intervalMs?: number } = {}): Promise<ReceivedWebhook[]> {
    return waitFor(() => (receiver.received(path).length >= count ? receiver.received(path) : undefined), {
      description: `${count} request(s) at ${path}`,
      ...options,
    });
  }

  /** The Standard Webhooks check of what arrived, by the `standardwebhooks` package (it throws on a bad signature): a JSON body parsed. */
  function verified(request: ReceivedWebhook, secret: string): unknown {
    const jsonParse = request.headers['content-type'] === 'application/json';
    return new Webhook(secret).verify(request.rawBody, request.headers as Record<string, string>, { jsonParse });
  }

  const newForm = (definition: object = inspection) => createTemplate(sys.api, sys.org, definition);

  it('sends a submission, signed, in the JSON and XML shapes, once to each destination; the log shows the attempt', async () => {
    const form = await newForm();
    const jsonPath = newPath();
    const xmlPath = newPath();
    const json = await httpDestination(form, receiver.script(jsonPath, answers.ok()));
    const xml = await httpDestination(form, receiver.script(xmlPath, answers.ok('<ok/>')), 'xml_format');
    const before = Date.now();
    await submit(form, { customer_name: 'Acme', comments: 'Gate <1234> & "back"' });

    const [arrived] = await arrivals(jsonPath, 1);
    expect(arrived!.method).toBe('POST');
    expect(arrived!.headers).toMatchObject({
      'content-type': 'application/json',
      'x-api-key': 'k-123',
      'webhook-id': expect.stringMatching(/^msg_[0-9a-f]{32}$/),
      'webhook-timestamp': expect.stringMatching(/^\d+$/),
      'webhook-signature': expect.stringMatching(/^v1,[A-Za-z0-9+/]+=*$/),
    });
    expect(Math.abs(Number(arrived!.headers['webhook-timestamp']) * 1000 - Date.now())).toBeLessThan(60_000);
    const body = verified(arrived!, json.secret) as { metadata: Record<string, unknown> };
    expect(body).toEqual({
      metadata: {
        device_id: device.identifier,
        username: 'Ada',
        submitted_at: expect.any(String),
        received_at: expect.any(String),
        submission_id: expect.any(Number),
        form_name: 'Site inspection',
        form_namespace: form.namespace,
        form_version: '1.00',
      },
      answers: { customer_name: { value: 'Acme' }, comments: { value: 'Gate <1234> & "back"' } },
    });
    expect(Date.parse(body.metadata['received_at'] as string)).toBeGreaterThanOrEqual(before - 1000);
    // Signed with this destination's secret, not any other.
    expect(() => verified(arrived!, xml.secret)).toThrow(/signature/i);
    expect(() => verified({ ...arrived!, rawBody: Buffer.from(arrived!.body.replace('Acme', 'Acne')) }, json.secret)).toThrow();

    const [xmlArrived] = await arrivals(xmlPath, 1);
    expect(xmlArrived!.headers['content-type']).toBe('application/xml');
    verified(xmlArrived!, xml.secret);
    expect(xmlArrived!.body).toMatch(new RegExp(`^<\\?xml version="1.0" encoding="UTF-8"\\?>\\n<instance xmlns="${form.namespace.replace(/[.?]/g, '\\$&')}" `));
    expect(xmlArrived!.body).toContain(`submittingDevice="${device.identifier}"`);
    expect(xmlArrived!.body).toContain(`dm:form="Site inspection"`);
    expect(xmlArrived!.body).toContain('<inputs><customer_name>Acme</customer_name><comments>Gate &lt;1234&gt; &amp; &quot;back&quot;</comments></inputs></instance>');

    const delivery = await waitForDelivery(json, (d) => d.status === 'succeeded');
    expect(delivery).toEqual({
      id: expect.any(Number),
      destination_id: json.id,
      submission_id: body.metadata['submission_id'],
      webhook_id: arrived!.headers['webhook-id'],
      status: 'succeeded',
      next_attempt_at: null,
      created_at: expect.any(String),
      updated_at: expect.any(String),
      attempts: [{ attempted_at: expect.any(String), status_code: 200, duration_ms: expect.any(Number), response_body: 'thanks', error: null }],
    });
    expect((await waitForDelivery(xml, (d) => d.status === 'succeeded')).attempts).toMatchObject([{ status_code: 200, response_body: '<ok/>' }]);
    expect(receiver.received(jsonPath)).toHaveLength(1);
    expect(receiver.received(xmlPath)).toHaveLength(1);

    // Redelivered by hand: at once, with the same webhook-id and body, and logged.
    const redelivered = await sys.api.post(`/api/forms/${form.id}/destinations/${json.id}/deliveries/${delivery.id}/redeliver.json`, { token: sys.org.token });
    expect(redelivered.status).toBe(202);
    expect(redelivered.json().delivery).toMatchObject({ id: delivery.id, status: 'pending', webhook_id: delivery.webhook_id });
    const [, again] = await arrivals(jsonPath, 2);
    expect(again!.headers['webhook-id']).toBe(arrived!.headers['webhook-id']);
    expect(again!.body).toBe(arrived!.body);
    verified(again!, json.secret);
    expect((await waitForDelivery(json, (d) => d.status === 'succeeded' && d.attempts.length === 2)).attempts).toHaveLength(2);
  });

  it('delivers a form submitted without a oneshot (API v3) once, however often the client sends it, with its submissionIdentifier', async () => {
    const form = await newForm();
    const path = newPath();
    const destination = await httpDestination(form, receiver.script(path, answers.ok()), 'xml_format');
    const payload = `<?xml version='1.0' encoding='UTF-8'?><instance xmlns='${form.namespace}' submissionIdentifier='client-42'><customer_name>Direct</customer_name></instance>`;
    for (let sent = 0; sent < 2; sent += 1) {
      const res = await sys.api.post(`/api/v3/devices/${encodeURIComponent(device.identifier)}/submissions.json`, { token: sys.org.token, json: { payload } });
      expect(res.status).toBe(202);
    }

    const [arrived] = await arrivals(path, 1);
    verified(arrived!, destination.secret);
    expect(arrived!.body).toContain(`submissionIdentifier="client-42" submittingDevice="${device.identifier}"`);
    expect(arrived!.body).toContain('<inputs><customer_name>Direct</customer_name></inputs>');
    // A later submission's delivery shows the retried one made none of its own.
    await submit(form, { customer_name: 'After' });
    await arrivals(path, 2);
    const log = await deliveries(destination);
    expect(log.map((delivery) => delivery.status)).toEqual(['succeeded', 'succeeded']);
    expect(receiver.received(path).filter((request) => request.body.includes('client-42'))).toHaveLength(1);
  });

  it('retries a receiver that answered 500 within seconds, with the same webhook-id; 200 ends it', async () => {
    const form = await newForm();
    const path = newPath();
    const destination = await httpDestination(form, receiver.script(path, answers.status(500, 'database down'), answers.ok('recovered')));
    await submit(form, { customer_name: 'Retry Ltd' });

    const [first, second] = await arrivals(path, 2, retryWait);
    expect(second!.headers['webhook-id']).toBe(first!.headers['webhook-id']);
    expect(second!.body).toBe(first!.body);
    verified(first!, destination.secret);
    verified(second!, destination.secret);
    expect(second!.receivedAt - first!.receivedAt).toBeGreaterThanOrEqual(firstRetryMs * 0.9 - 100);

    const delivery = await waitForDelivery(destination, (d) => d.status === 'succeeded');
    expect(delivery.attempts).toMatchObject([
      { status_code: 500, response_body: 'database down', error: null },
      { status_code: 200, response_body: 'recovered', error: null },
    ]);
    expect(delivery.next_attempt_at).toBeNull();
  });

  it('keeps retrying a receiver that is down: the log shows each refused connection and when the next comes', async () => {
    const form = await newForm();
    const destination = await httpDestination(form, await downReceiverUrl());
    await submit(form, { customer_name: 'Nobody Home' });

    const first = await waitForDelivery(destination, (d) => d.attempts.length === 1);
    expect(first).toMatchObject({ status: 'pending', attempts: [{ status_code: null, response_body: null, error: expect.stringMatching(/ECONNREFUSED/) }] });
    const firstAt = Date.parse(first.attempts[0]!.attempted_at);
    expect(Date.parse(first.next_attempt_at!) - firstAt).toBeGreaterThanOrEqual(firstRetryMs * 0.9);
    expect(Date.parse(first.next_attempt_at!) - firstAt).toBeLessThanOrEqual(firstRetryMs * 1.1 + first.attempts[0]!.duration_ms + 1000);

    const second = await waitForDelivery(destination, (d) => d.attempts.length === 2, retryWait);
    expect(second.status).toBe('pending');
    expect(second.attempts[1]!.error).toMatch(/ECONNREFUSED/);
    // Then the schedule slows down: 5 minutes.
    const secondAt = Date.parse(second.attempts[1]!.attempted_at);
    expect(Date.parse(second.next_attempt_at!) - secondAt).toBeGreaterThanOrEqual(5 * 60_000 * 0.9);
    expect((await destinationView(destination)).active).toBe(true);
  });

  it('gives up on a slow receiver at the timeout, records it, and retries', async () => {
    const form = await newForm();
    const path = newPath();
    const destination = await httpDestination(form, receiver.script(path, answers.slow(deliveryTimeoutMs + 3000)));
    await submit(form, { customer_name: 'Slow Co' });

    const delivery = await waitForDelivery(destination, (d) => d.attempts.length === 1);
    expect(delivery.status).toBe('pending');
    expect(delivery.attempts[0]).toMatchObject({ status_code: null, response_body: null, error: `no answer within ${deliveryTimeoutMs} ms` });
    expect(delivery.attempts[0]!.duration_ms).toBeGreaterThanOrEqual(deliveryTimeoutMs - 50);
    expect(delivery.attempts[0]!.duration_ms).toBeLessThan(deliveryTimeoutMs + 1500);
    expect(delivery.next_attempt_at).not.toBeNull();
    // It did arrive, signed: the receiver was only late.
    verified(receiver.received(path)[0]!, destination.secret);
  });

  it('deactivates a destination that answers 410, visibly; it sends nothing more until made active again', async () => {
    const form = await newForm();
    const gonePath = newPath();
    const otherPath = newPath();
    const gone = await httpDestination(form, receiver.script(gonePath, answers.gone(), answers.ok('back again')));
    await submit(form, { customer_name: 'Gone Inc' });

    const delivery = await waitForDelivery(gone, (d) => d.status === 'failed');
    expect(delivery).toMatchObject({ next_attempt_at: null, attempts: [{ status_code: 410, response_body: 'no such hook any more', error: null }] });
    const view = await destinationView(gone);
    expect(view).toMatchObject({ active: false, deactivated_reason: 'gone', deactivated_at: expect.any(String) });
    const listed = (await sys.api.get(`/api/forms/${form.id}/destinations.json`, { token: sys.org.token })).json().destinations;
    expect(listed).toEqual([expect.objectContaining({ id: gone.id, active: false, deactivated_reason: 'gone' })]);

    // The next submission goes to the form's other destination only.
    const other = await httpDestination(form, receiver.script(otherPath, answers.ok()));
    await submit(form, { customer_name: 'Gone Inc, again' });
    await waitForDelivery(other, (d) => d.status === 'succeeded');
    expect(await deliveries(gone)).toHaveLength(1);
    expect(receiver.received(gonePath)).toHaveLength(1);

    const refused = await sys.api.post(`/api/forms/${form.id}/destinations/${gone.id}/deliveries/${delivery.id}/redeliver.json`, { token: sys.org.token });
    expect(refused.status).toBe(409);
    expect(refused.json().message).toMatch(/inactive/);
    const reactivated = await sys.api.put(`/api/forms/${form.id}/destinations/${gone.id}.json`, { token: sys.org.token, json: { destination: { active: true } } });
    expect(reactivated.json().destination).toMatchObject({ active: true, deactivated_reason: null, deactivated_at: null });
    expect((await sys.api.post(`/api/forms/${form.id}/destinations/${gone.id}/deliveries/${delivery.id}/redeliver`, { token: sys.org.token })).status).toBe(202);
    const redone = await waitForDelivery(gone, (d) => d.status === 'succeeded');
    expect(redone.attempts).toMatchObject([{ status_code: 410 }, { status_code: 200, response_body: 'back again' }]);
  });

  it('does not follow a redirect: the attempt is recorded as failed with its Location, and nothing reaches the target', async () => {
    const form = await newForm();
    const path = newPath();
    const target = newPath();
    const destination = await httpDestination(form, receiver.script(path, answers.redirect(receiver.url(target))));
    await submit(form, { customer_name: 'Moved Ltd' });

    const delivery = await waitForDelivery(destination, (d) => d.attempts.length === 1);
    expect(delivery.status).toBe('pending');
    expect(delivery.attempts[0]).toMatchObject({
      status_code: 302,
      response_body: 'moved',
      error: `redirects are not followed (Location: ${receiver.url(target)})`,
    });
    expect(receiver.received(path)).toHaveLength(1);
    expect(receiver.received(target)).toEqual([]);
  });

  it('reads only the first 1 KB of a 10 MB answer, and records it', async () => {
    const form = await newForm();
    const path = newPath();
    const destination = await httpDestination(form, receiver.script(path, answers.large(10 * 1024 * 1024)));
    await submit(form, { customer_name: 'Big Answers plc' });

    const delivery = await waitForDelivery(destination, (d) => d.status !== 'pending' || d.attempts.length > 0);
    expect(delivery.status).toBe('succeeded');
    const firstKilobyte = answerBodyPattern.repeat(Math.ceil(1024 / answerBodyPattern.length)).slice(0, 1024);
    expect(delivery.attempts).toEqual([expect.objectContaining({ status_code: 200, response_body: firstKilobyte, error: null })]);
  });

  it("removes a deleted form's destinations: the API answers 404, and the retry that was due is never sent", async () => {
    const form = await newForm();
    const path = newPath();
    const destination = await httpDestination(form, receiver.script(path, answers.status(500, 'not yet'), answers.ok()));
    await submit(form, { customer_name: 'Closed Down Ltd' });
    const first = await waitForDelivery(destination, (d) => d.attempts.length === 1);
    expect(first.status).toBe('pending');

    const deleted = await sys.api.delete(`/organizations/${sys.org.orgId}/forms/${form.id}`, { token: sys.org.token });
    expect(deleted.status).toBe(200);
    const shown = await sys.api.get(`/api/forms/${form.id}/destinations/${destination.id}.json`, { token: sys.org.token });
    expect(shown.status).toBe(404);
    // Past the time its retry was due, with room for a busy machine: nothing more arrived.
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, Date.parse(first.next_attempt_at!) - Date.now()) + 3000));
    expect(receiver.received(path)).toHaveLength(1);
  });

  it('chains a dispatch: submitting form A pushes form B to the same device, pre-filled, with a badge of 1', async () => {
    const formA = await newForm();
    const formB = await newForm(followUp);
    const chained = await enrollDevice(sys.api, sys.org, { owner: 'Grace' });
    const created = await sys.api.post(`/api/forms/${formA.id}/destinations.json`, {
      token: sys.org.token,
      json: {
        destination: { description: 'Book the follow-up', format_selection: 'xml_format', transport_selection: 'dispatch_transport' },
        xml_format: {},
        dispatch_transport: { form_namespace: formB.namespace, field_map: { client: 'customer_name', notes: 'comments' } },
      },
    });
    expect(created.status).toBe(201);
    const destination: Destination = { id: created.json().destination.id, formId: formA.id, secret: created.json().destination.secret };

    await submit(formA, { customer_name: 'Acme', comments: 'Bring the ladder' }, chained);

    const [oneshot] = await waitFor(
      async () => {
        const list = (await sys.api.get(`/clients/${encodeURIComponent(chained.identifier)}/oneshots.json`, { token: sys.org.token })).json();
        return list.length > 0 && list;
      },
      { description: 'the chained oneshot' },
    );
    expect(oneshot).toMatchObject({ name: 'Follow-up visit', namespace: expect.stringMatching(new RegExp(`^${formB.namespace.replace(/[.?]/g, '\\$&')}\\?`)) });
    const onDevice = (await sys.api.get('/device/oneshots', { bearer: chained.secret })).json().oneshots;
    expect(onDevice).toEqual([expect.objectContaining({ form_namespace: formB.namespace, payload: { client: 'Acme', notes: 'Bring the ladder' } })]);
    await waitFor(
      async () => (await sys.api.get(`/clients/${encodeURIComponent(chained.identifier)}/badge.json`, { token: sys.org.token })).json().badge === 1,
      { description: 'a badge of 1' },
    );

    const delivery = await waitForDelivery(destination, (d) => d.status === 'succeeded');
    expect(delivery.attempts).toEqual([expect.objectContaining({ status_code: null, error: null, response_body: expect.stringContaining(oneshot.namespace) })]);
  });
});

/** Pushes `form` to `device` and submits it with these answers, as the device app does. */
async function submitThrough(api: ApiClient, org: TestOrganization, form: TestTemplate, device: TestDevice, values: Record<string, string>): Promise<void> {
  const pushed = await pushJson(api, org, device.identifier, { form_namespace: form.namespace, payload: {} });
  if (pushed.status !== 202) throw new Error(`pushing answered ${pushed.status}: ${pushed.text}`);
  const { id } = pushed.json().oneshot_list[0];
  const sent = Object.fromEntries(Object.entries(values).map(([question, value]) => [question, { value }]));
  const res = await api.post(`/device/oneshots/${id}/submission`, { bearer: device.secret, json: { answers: sent } });
  if (res.status !== 201) throw new Error(`submitting answered ${res.status}: ${res.text}`);
}

async function createHttpDestination(api: ApiClient, org: TestOrganization, form: TestTemplate, uri: string): Promise<Destination> {
  const res = await api.post(`/api/forms/${form.id}/destinations.json`, {
    token: org.token,
    json: { destination: { format_selection: 'json_format', transport_selection: 'http_transport' }, json_format: {}, http_transport: { uri } },
  });
  if (res.status !== 201) throw new Error(`creating a destination answered ${res.status}: ${res.text}`);
  return { id: res.json().destination.id, formId: form.id, secret: res.json().destination.secret };
}

describe.each(systemModes)('Deliveries past the retention (%s)', (mode) => {
  const day = 24 * 3_600_000;
  let clockOffsetMs = 0;
  const now = () => Date.now() + clockOffsetMs;
  // The delivery service on a clock the test moves (in distributed mode, an in-process peer beside the other processes).
  const deliveryOnTestClock: ServiceStarter<Bus> = (context) => startDelivery(context, { now });
  const sys = useSystem(mode, {
    organizations: 1,
    template: inspection,
    env: { DELIVERY_ALLOW_PRIVATE_NETWORKS: 'true', DELIVERY_RETENTION_DAYS: '30', DELIVERY_SWEEP_INTERVAL_MS: '200' },
    starters: serviceStarters.map((start) => (start === startDeliveryService ? deliveryOnTestClock : start)),
  });
  let receiver: WebhookReceiver;
  beforeAll(async () => {
    receiver = await WebhookReceiver.start();
  });
  afterAll(() => receiver?.close());

  const log = async (destination: Destination): Promise<{ total_count: number; deliveries: DeliveryView[] }> =>
    (await sys.api.get(`/api/forms/${destination.formId}/destinations/${destination.id}/deliveries.json`, { token: sys.org.token })).json();

  it('removes deliveries that ended more than DELIVERY_RETENTION_DAYS ago, and keeps recent and pending ones', async () => {
    const device = await enrollDevice(sys.api, sys.org, { owner: 'Ada' });
    const delivered = await createHttpDestination(sys.api, sys.org, sys.template, receiver.script(`/retention/${mode}/ok`, answers.ok()));
    const paused = await createHttpDestination(sys.api, sys.org, sys.template, receiver.script(`/retention/${mode}/failing`, answers.status(500)));
    await submitThrough(sys.api, sys.org, sys.template, device, { customer_name: 'Old Ltd' });
    await waitFor(async () => (await log(delivered)).deliveries[0]?.status === 'succeeded', { description: 'the first delivery' });
    // Failed once, then its destination turned off: pending, unchanged from then on.
    await waitFor(async () => (await log(paused)).deliveries[0]?.attempts.length === 1, { description: 'a failed attempt' });
    const off = await sys.api.put(`/api/forms/${paused.formId}/destinations/${paused.id}.json`, { token: sys.org.token, json: { destination: { active: false } } });
    expect(off.status).toBe(200);

    clockOffsetMs += 29 * day;
    await submitThrough(sys.api, sys.org, sys.template, device, { customer_name: 'Recent Ltd' });
    await waitFor(async () => (await log(delivered)).deliveries.filter((d) => d.status === 'succeeded').length === 2, { description: 'the second delivery' });
    await new Promise((resolve) => setTimeout(resolve, 1000)); // sweeps pass: none has ended 30 days ago yet
    expect((await log(delivered)).total_count).toBe(2);

    clockOffsetMs += 2 * day; // the first ended 31 days ago, the second 2
    const kept = await waitFor(async () => {
      const listed = await log(delivered);
      return listed.total_count === 1 ? listed : undefined;
    }, { description: 'the sweep' });
    expect(JSON.parse(receiver.received(`/retention/${mode}/ok`)[1]!.body).metadata.submission_id).toBe(kept.deliveries[0]!.submission_id);
    expect((await log(paused)).deliveries.map((d) => d.status)).toEqual(['pending']);
  });
});

/**
 * A system whose delivery service can be restarted on the same data, and whose delivery
 * SQLite file is known: the whole system on one DATA_DIR (embedded, rabbitmq), or the
 * delivery process alone (distributed: its file is the one its ready line names).
 */
interface RestartableSystem {
  api: ApiClient;
  adminToken: string;
  /** Where the delivery service keeps delivery.sqlite and its generated key. */
  deliveryDataDir: string;
  restartDelivery(): Promise<void>;
  stopDelivery(): Promise<void>;
  stop(): Promise<void>;
}

const e2eAdminToken = 'test-admin-token-0123456789abcdef';

async function startRestartable(mode: SystemMode, env: Record<string, string>, dataDir: string): Promise<RestartableSystem> {
  if (mode !== 'distributed') {
    let running: RunningSystem | null = await startSystem(mode, { ...env, DATA_DIR: dataDir });
    const system: RestartableSystem = {
      api: running.api,
      adminToken: running.adminToken,
      deliveryDataDir: dataDir,
      restartDelivery: async () => {
        await system.stopDelivery();
        running = await startSystem(mode, { ...env, DATA_DIR: dataDir });
        system.api = running.api;
      },
      stopDelivery: async () => {
        await running?.stop();
        running = null;
      },
      stop: async () => {
        await running?.stop();
      },
    };
    return system;
  }
  const lines: string[] = [];
  const logger = pino({ level: 'info' }, { write: (line: string) => lines.push(line) });
  const distributed = await startDistributed({
    services: serviceStarters.map(processNameOf).filter((name): name is string => name !== undefined),
    env,
    logger,
    adminToken: e2eAdminToken,
  });
  const ready = lines.map((line) => JSON.parse(line) as { msg?: string; sqliteFile?: string }).find((entry) => entry.msg === 'delivery ready' && entry.sqliteFile);
  if (!ready) throw new Error('The delivery process did not name its SQLite file in its ready line');
  const delivery = distributed.processes.get('delivery')!;
  return {
    api: distributed.api,
    adminToken: e2eAdminToken,
    deliveryDataDir: dirname(ready.sqliteFile!),
    restartDelivery: async () => {
      await delivery.signal('SIGTERM');
      await delivery.start();
    },
    stopDelivery: () => delivery.signal('SIGTERM'),
    stop: () => distributed.stop(),
  };
}

/**
 * Starts what runs the delivery service in `mode` from dist/ (`npm start`'s process in
 * embedded mode, the delivery process otherwise) on `dataDir` with `env`, and waits for it to
 * exit (it is expected to refuse to start); its exit code and what it wrote to stderr.
 */
async function startExpectingRefusal(mode: SystemMode, dataDir: string, env: Record<string, string>): Promise<{ code: number | null; stderr: string }> {
  ensureBuilt();
  const main = mode === 'embedded' ? 'services/embedded/dist/main.js' : 'services/delivery/dist/main.js';
  const child = spawn(process.execPath, [join(__dirname, '..', main)], {
    env: {
      PATH: process.env.PATH ?? '',
      DATA_DIR: dataDir,
      PORT: '0',
      HEALTH_PORT: '0',
      LOG_LEVEL: 'silent',
      ADMIN_TOKEN: e2eAdminToken,
      ...(mode === 'embedded' ? {} : { AMQP_URL: amqpUrl, AMQP_PREFIX: uniqueName('e2e_refused') }),
      ...env,
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const killer = setTimeout(() => child.kill('SIGKILL'), 30_000);
  const code = await new Promise<number | null>((resolve) => child.once('exit', (exitCode) => resolve(exitCode)));
  clearTimeout(killer);
  return { code, stderr };
}

describe.each(systemModes)('Signing secrets at rest (%s)', (mode) => {
  let receiver: WebhookReceiver;
  let dataDir: string;
  beforeAll(async () => {
    receiver = await WebhookReceiver.start();
    dataDir = mkdtempSync(join(tmpdir(), 'formcast-secrets-e2e-'));
  });
  afterAll(async () => {
    await receiver?.close();
    rmSync(dataDir, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
  });

  it('keeps each signing secret out of the SQLite file, signs with it after a restart, and refuses to start with another key', async () => {
    const system = await startRestartable(mode, { DELIVERY_ALLOW_PRIVATE_NETWORKS: 'true' }, dataDir);
    try {
      const org = await createOrganization(system.api, system.adminToken);
      const form = await createTemplate(system.api, org, inspection);
      const device = await enrollDevice(system.api, org, { owner: 'Ada' });
      const path = `/secrets/${mode}`;
      const destination = await createHttpDestination(system.api, org, form, receiver.script(path, answers.ok()));

      // The database and its write-ahead log, as a stolen copy would have them.
      const file = join(system.deliveryDataDir, 'delivery.sqlite');
      const bytes = Buffer.concat([file, `${file}-wal`].filter((f) => existsSync(f)).map((f) => readFileSync(f)));
      expect(bytes.length).toBeGreaterThan(0);
      expect(bytes.includes(destination.secret)).toBe(false);
      expect(bytes.includes(destination.secret.slice('whsec_'.length))).toBe(false);
      expect(bytes.includes('enc:v1:')).toBe(true);

      await system.restartDelivery();
      await submitThrough(system.api, org, form, device, { customer_name: 'After Restart' });
      const [arrived] = await waitFor(() => (receiver.received(path).length > 0 ? receiver.received(path) : undefined), { description: 'the delivery after the restart' });
      new Webhook(destination.secret).verify(arrived!.rawBody, arrived!.headers as Record<string, string>);

      await system.stopDelivery();
      const refused = await startExpectingRefusal(mode, system.deliveryDataDir, { DELIVERY_SECRETS_KEY: randomBytes(32).toString('base64') });
      expect(refused.code).toBe(1);
      expect(refused.stderr).toMatch(/failed to start: A destination's signing secret was sealed with key [0-9a-f]{8}, not with DELIVERY_SECRETS_KEY \(key [0-9a-f]{8}\)/);
      const malformed = await startExpectingRefusal(mode, system.deliveryDataDir, { DELIVERY_SECRETS_KEY: 'too-short' });
      expect(malformed).toEqual({ code: 1, stderr: 'Invalid setting DELIVERY_SECRETS_KEY: must be 32 bytes in Base64 (e.g. `openssl rand -base64 32`)\n' });
    } finally {
      await system.stop();
    }
  }, 180_000);
});
