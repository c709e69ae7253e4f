import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import pino from 'pino';
import { Webhook } from 'standardwebhooks';
import { InProcessBus } from '@formcast/bus';
import {
  createEnvelope,
  deliveryCommands,
  directoryCommands,
  directoryEvents,
  pushCommands,
  submissionEvents,
  type DeliveryListView,
  type DestinationDetailView,
  type DestinationView,
  type DestinationWithSecretView,
  type DeviceOneshotView,
  type EnrolledDeviceView,
  type FormCreatedView,
  type OrganizationCreatedView,
  type OutstandingOneshotView,
  type SubmissionReceivedPayload,
} from '@formcast/contracts';
import { startDirectoryService } from '@formcast/directory';
import { parseSettings, type RunningService } from '@formcast/platform';
import { startPushService } from '@formcast/push';
import { appErrorOf, waitFor } from '@formcast/testing';
import { secretCipherFromSettings } from '../src/secrets';
import { startDelivery } from '../src/service';
import { startReceiver, type LocalReceiver, type ReceivedRequest } from './sender/local-receiver';

const logger = pino({ level: 'silent' });

const inspection = {
  type: 'root',
  title: 'Site inspection',
  children: [
    { identifier: 'customer_name', title: 'Customer', type: 'text' },
    { identifier: 'visits', title: 'Visits', type: 'integer' },
    { identifier: 'parts', title: 'Parts', type: 'group', children: [{ identifier: 'part_no', title: 'Part', type: 'text' }] },
  ],
};

const followUp = {
  type: 'root',
  title: 'Follow-up visit',
  children: [
    { identifier: 'client', title: 'Client', type: 'text' },
    { identifier: 'items', title: 'Items', type: 'group', children: [{ identifier: 'part_no', title: 'Part', type: 'text' }] },
  ],
};

/** The directory, push and delivery services on one in-process bus, with a clock the test moves. */
describe('the delivery service over the bus', () => {
  let dataDir: string;
  let bus: InProcessBus;
  let services: RunningService[];
  let receivers: LocalReceiver[];
  let clockOffsetMs: number;
  const now = () => Date.now() + clockOffsetMs;

  let orgId: number;
  let otherOrgId: number;
  let form: FormCreatedView;
  let device: EnrolledDeviceView['device'];
  let submissionIds: number;

  const settings = (env: Record<string, string> = {}) =>
    parseSettings({ DATA_DIR: dataDir, DELIVERY_ALLOW_PRIVATE_NETWORKS: 'true', DELIVERY_TIMEOUT_MS: '1000', ...env });

  /** Directory, push and delivery on a new bus, on the data of DATA_DIR. */
  async function startSystem(env: Record<string, string> = {}): Promise<void> {
    bus = new InProcessBus();
    services = [];
    for (const start of [startDirectoryService, startPushService]) services.push(await start({ bus, settings: settings(env), logger }));
    services.push(await startDelivery({ bus, settings: settings(env), logger }, { pollMs: 20, now }));
    await bus.start();
  }

  async function stopSystem(): Promise<void> {
    await bus.close();
    for (const service of services.reverse()) await service.stop();
  }

  const request = <T>(type: string, payload: unknown, org: number | null = orgId) => bus.request<T>(createEnvelope(type, payload, { orgId: org }));

  async function receiver(...args: Parameters<typeof startReceiver>): Promise<LocalReceiver> {
    const started = await startReceiver(...args);
    receivers.push(started);
    return started;
  }

  const createHttpDestination = (uri: string, extra: object = {}) =>
    request<DestinationWithSecretView>(deliveryCommands.createDestination, {
      formId: form.id,
      destination: { description: 'CRM', format_selection: 'json_format', transport_selection: 'http_transport' },
      http_transport: { uri },
      ...extra,
    });

  function submission(overrides: Partial<SubmissionReceivedPayload> = {}): SubmissionReceivedPayload {
    submissionIds += 1;
    return {
      submissionId: submissionIds,
      orgId,
      deviceId: device.id,
      deviceIdentifier: device.identifier,
      deviceOwner: 'Ada',
      formId: form.id,
      formName: form.name,
      formNamespace: form.namespace,
      formVersion: '1.00',
      oneshotId: null,
      clientSubmissionId: null,
      submittedAt: new Date().toISOString(),
      receivedAt: new Date().toISOString(),
      answers: { customer_name: 'Acme', visits: '2', parts: [{ part_no: 'A1' }, { part_no: 'B7' }] },
      ...overrides,
    };
  }

  const publish = (payload: SubmissionReceivedPayload) =>
    bus.publish(createEnvelope(submissionEvents.submissionReceived, payload, { orgId: payload.orgId }));

  const deliveryLog = (destinationId: number, page: object = {}) =>
    request<DeliveryListView>(deliveryCommands.listDeliveries, { formId: form.id, destinationId, ...page });

  /** The body, once the standardwebhooks package verified its signature with `secret` (it throws otherwise). */
  function verified(secret: string, received: ReceivedRequest): string {
    const headers = {
      'webhook-id': String(received.headers['webhook-id']),
      'webhook-timestamp': String(received.headers['webhook-timestamp']),
      'webhook-signature': String(received.headers['webhook-signature']),
    };
    new Webhook(secret).verify(received.body, headers, { jsonParse: false });
    return received.body;
  }


  beforeEach(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'delivery-service-'));
    receivers = [];
    clockOffsetMs = 0;
    submissionIds = 1000;
    await startSystem();

    const org = await request<OrganizationCreatedView>(directoryCommands.createOrganization, { name: 'Acme' }, null);
    orgId = org.organization.id;
    otherOrgId = (await request<OrganizationCreatedView>(directoryCommands.createOrganization, { name: 'Other' }, null)).organization.id;
    form = await request<FormCreatedView>(directoryCommands.createForm, { definition: inspection });
    const enrolled = await request<EnrolledDeviceView>(
      directoryCommands.enrollDevice,
      { enrollment_code: org.organization.enrollment_code, identifier: 'Android_delivery-test', owner: 'Ada' },
      null,
    );
    await request(directoryCommands.approveDevice, { deviceId: enrolled.device.id });
    device = enrolled.device;
  });

  afterEach(async () => {
    await stopSystem();
    await Promise.all(receivers.map((r) => r.close()));
    rmSync(dataDir, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
  });

  it('delivers a submission once, signed, however often its event comes, and logs it', async () => {
    const good = await receiver((_, res) => res.end('received'));
    const destination = await createHttpDestination(good.url);
    expect(destination).toMatchObject({ active: true, format_type: 'json_format', transport_type: 'http_transport', http_transport: { uri: good.url } });
    expect(destination.secret).toMatch(/^whsec_/);

    const first = submission();
    await publish(first);
    await publish(first);
    // A later submission: once it arrives, the duplicate published before it was handled too.
    await publish(submission());
    await waitFor(() => good.received.length >= 2, { description: 'two deliveries' });
    const log = await waitFor(async () => {
      const listed = await deliveryLog(destination.id);
      return listed.deliveries.every((d) => d.status === 'succeeded') ? listed : undefined;
    });

    expect(good.received).toHaveLength(2);
    const [delivered] = good.received;
    expect(delivered!.headers['content-type']).toBe('application/json');
    expect(JSON.parse(verified(destination.secret, delivered!))).toMatchObject({
      metadata: { device_id: device.identifier, username: 'Ada', submission_id: first.submissionId, form_name: 'Site inspection', form_version: '1.00' },
      answers: { customer_name: { value: 'Acme' }, parts: { value: [{ part_no: 'A1' }, { part_no: 'B7' }] } },
    });
    expect(log.total_count).toBe(2);
    expect(log.deliveries.map((d) => d.submission_id)).toEqual([first.submissionId + 1, first.submissionId]);
    const logged = log.deliveries[1]!;
    expect(logged.webhook_id).toBe(delivered!.headers['webhook-id']);
    expect(logged.attempts).toEqual([
      { attempted_at: expect.any(String), status_code: 200, duration_ms: expect.any(Number), response_body: 'received', error: null },
    ]);
    // The list shows the destination, never its secret.
    const listed = await request<DestinationView[]>(deliveryCommands.listDestinations, { formId: form.id });
    expect(listed.map((d) => d.id)).toEqual([destination.id]);
    expect(JSON.stringify(listed)).not.toContain('whsec_');
  });

  it('retries a receiver that failed, with the same webhook-id, and logs both attempts', async () => {
    const flaky = await receiver((_, res, index) => {
      res.statusCode = index === 0 ? 500 : 200;
      res.end(index === 0 ? 'busy' : 'ok');
    });
    const destination = await createHttpDestination(flaky.url);
    await publish(submission());
    const afterFirst = await waitFor(async () => {
      const [d] = (await deliveryLog(destination.id)).deliveries;
      return d?.attempts.length === 1 ? d : undefined;
    });
    expect(afterFirst).toMatchObject({ status: 'pending', attempts: [{ status_code: 500, response_body: 'busy' }] });
    const retryIn = Date.parse(afterFirst.next_attempt_at!) - now();
    expect(retryIn).toBeGreaterThan(4000);
    expect(retryIn).toBeLessThanOrEqual(5500);

    clockOffsetMs += 6000; // the first retry comes due
    const done = await waitFor(async () => {
      const [d] = (await deliveryLog(destination.id)).deliveries;
      return d?.status === 'succeeded' ? d : undefined;
    });
    expect(done.attempts.map((a) => a.status_code)).toEqual([500, 200]);
    expect(flaky.received.map((r) => r.headers['webhook-id'])).toEqual([done.webhook_id, done.webhook_id]);
    expect(verified(destination.secret, flaky.received[1]!)).toBe(flaky.received[0]!.body);
  });

  it('keeps the schedule across a restart of the service', async () => {
    const flaky = await receiver((_, res, index) => {
      res.statusCode = index === 0 ? 503 : 204;
      res.end();
    });
    const destination = await createHttpDestination(flaky.url);
    await publish(submission());
    await waitFor(async () => (await deliveryLog(destination.id)).deliveries[0]?.attempts.length === 1);

    await stopSystem();
    await startSystem();
    clockOffsetMs += 6000;
    await waitFor(async () => (await deliveryLog(destination.id)).deliveries[0]?.status === 'succeeded', { description: 'the retry after the restart' });
    expect(flaky.received).toHaveLength(2);
  });

  it('deactivates a destination answered with 410, and says why', async () => {
    const gone = await receiver((_, res) => {
      res.statusCode = 410;
      res.end();
    });
    const destination = await createHttpDestination(gone.url);
    await publish(submission());
    const shown = await waitFor(async () => {
      const d = await request<DestinationDetailView>(deliveryCommands.getDestination, { formId: form.id, destinationId: destination.id });
      return d.active ? undefined : d;
    });
    expect(shown).toMatchObject({ active: false, deactivated_reason: 'gone' });
    expect((await deliveryLog(destination.id)).deliveries[0]).toMatchObject({ status: 'failed', next_attempt_at: null });
    const refused = await appErrorOf(
      request(deliveryCommands.redeliver, { formId: form.id, destinationId: destination.id, deliveryId: (await deliveryLog(destination.id)).deliveries[0]!.id }),
    );
    expect(refused.code).toBe('conflict');
  });

  it('never lets a slow receiver hold up another organization', async () => {
    // Four slots in all: were one destination allowed to take them, the other organization would wait a timeout.
    await stopSystem();
    await startSystem({
      DELIVERY_TIMEOUT_MS: '3000',
      DELIVERY_CONCURRENCY: '4',
      DELIVERY_DESTINATION_CONCURRENCY: '2',
      DELIVERY_ORGANIZATION_CONCURRENCY: '3',
    });
    const slow = await receiver(() => undefined); // never answers: each attempt waits for the timeout
    const good = await receiver();
    await createHttpDestination(slow.url);
    const otherForm = await request<FormCreatedView>(directoryCommands.createForm, { definition: inspection }, otherOrgId);
    const otherDestination = await request<DestinationWithSecretView>(
      deliveryCommands.createDestination,
      { formId: otherForm.id, destination: { format_selection: 'xml_format', transport_selection: 'http_transport' }, http_transport: { uri: good.url } },
      otherOrgId,
    );
    for (let i = 0; i < 20; i++) await publish(submission());
    await waitFor(() => slow.received.length === 2, { description: 'the slow receiver holding its two attempts' });
    const started = Date.now();
    await publish(submission({ orgId: otherOrgId, formId: otherForm.id, formNamespace: otherForm.namespace }));
    await waitFor(() => good.received.length === 1, { description: "the other organization's delivery" });
    // Long before the slow receiver's attempts time out.
    expect(Date.now() - started).toBeLessThan(1500);
    expect(good.received[0]!.headers['content-type']).toBe('application/xml');
    expect(verified(otherDestination.secret, good.received[0]!)).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>\n<instance /);
    expect(slow.received).toHaveLength(2); // DELIVERY_DESTINATION_CONCURRENCY
  });

  it('signs with both secrets while a rotation overlaps', async () => {
    const good = await receiver();
    const destination = await createHttpDestination(good.url);
    const rotated = await request<DestinationWithSecretView>(deliveryCommands.rotateDestinationSecret, { formId: form.id, destinationId: destination.id });
    expect(rotated.secret).not.toBe(destination.secret);
    expect(Date.parse(rotated.previous_secret_expires_at!) - Date.now()).toBeGreaterThan(23 * 3_600_000);
    await publish(submission());
    await waitFor(() => good.received.length === 1);
    expect(String(good.received[0]!.headers['webhook-signature']).split(' ')).toHaveLength(2);
    expect(() => verified(destination.secret, good.received[0]!)).not.toThrow();
    expect(() => verified(rotated.secret, good.received[0]!)).not.toThrow();
  });

  it('refuses a private address unless DELIVERY_ALLOW_PRIVATE_NETWORKS is true', async () => {
    await stopSystem();
    await startSystem({ DELIVERY_ALLOW_PRIVATE_NETWORKS: 'false' });
    const refused = await appErrorOf(createHttpDestination('http://127.0.0.1:9/hook'));
    expect(refused).toEqual({
      code: 'invalid',
      message: 'http_transport.uri: 127.0.0.1 is a loopback address; set DELIVERY_ALLOW_PRIVATE_NETWORKS=true to allow private networks',
    });
    expect(await request(deliveryCommands.listDestinations, { formId: form.id })).toEqual([]);
  });

  it("treats another organization's form as unknown", async () => {
    const good = await receiver();
    const destination = await createHttpDestination(good.url);
    for (const [type, payload] of [
      [deliveryCommands.listDestinations, { formId: form.id }],
      [deliveryCommands.getDestination, { formId: form.id, destinationId: destination.id }],
      [deliveryCommands.deleteDestination, { formId: form.id, destinationId: destination.id }],
      [deliveryCommands.listDeliveries, { formId: form.id, destinationId: destination.id }],
      [
        deliveryCommands.createDestination,
        { formId: form.id, destination: { format_selection: 'json_format', transport_selection: 'http_transport' }, http_transport: { uri: good.url } },
      ],
    ] as const) {
      expect((await appErrorOf(request(type, payload, otherOrgId))).code).toBe('not_found');
    }
    expect((await request<DestinationView[]>(deliveryCommands.listDestinations, { formId: form.id })).map((d) => d.id)).toEqual([destination.id]);
  });

  it('chains a dispatch exactly once: one oneshot on the submitting device, pre-filled, even when sent again', async () => {
    const target = await request<FormCreatedView>(directoryCommands.createForm, { definition: followUp });
    const unknown = await appErrorOf(
      request(deliveryCommands.createDestination, {
        formId: form.id,
        destination: { format_selection: 'xml_format', transport_selection: 'dispatch_transport' },
        dispatch_transport: { form_namespace: 'http://nowhere/xforms/none', field_map: {} },
      }),
    );
    expect(unknown).toEqual({ code: 'invalid', message: 'dispatch_transport.form_namespace: no form of this organization has namespace http://nowhere/xforms/none' });

    const destination = await request<DestinationWithSecretView>(deliveryCommands.createDestination, {
      formId: form.id,
      destination: { description: 'Follow-up', format_selection: 'xml_format', transport_selection: 'dispatch_transport' },
      dispatch_transport: { form_namespace: target.namespace, field_map: { client: 'customer_name', items: 'parts' } },
    });
    expect(destination.dispatch_transport).toEqual({
      id: destination.id,
      form_namespace: target.namespace,
      field_map: { client: 'customer_name', items: 'parts' },
      created_at: destination.created_at,
      updated_at: destination.created_at,
    });
    const submitted = submission();
    await publish(submitted);
    await publish(submitted);
    const delivered = await waitFor(async () => {
      const [d] = (await deliveryLog(destination.id)).deliveries;
      return d?.status === 'succeeded' ? d : undefined;
    });
    const outstanding = () => request<OutstandingOneshotView[]>(pushCommands.listDeviceOneshots, { deviceRef: device.identifier });
    const [oneshot] = await outstanding();
    expect(await outstanding()).toHaveLength(1);
    expect(oneshot).toMatchObject({ name: 'Follow-up visit', device_id: device.id });
    const shown = await request<DeviceOneshotView>(pushCommands.deviceGetOneshot, { deviceId: device.id, oneshotId: oneshot!.id });
    expect(shown.payload).toEqual({ client: 'Acme', items: [{ part_no: 'A1' }, { part_no: 'B7' }] });
    expect(JSON.parse(delivered.attempts[0]!.response_body!)).toMatchObject({ id: oneshot!.id });

    // Sent again by hand: the same command, which push applies once.
    await request(deliveryCommands.redeliver, { formId: form.id, destinationId: destination.id, deliveryId: delivered.id });
    await waitFor(async () => {
      const [d] = (await deliveryLog(destination.id)).deliveries;
      return d?.status === 'succeeded' && d.attempts.length === 2;
    });
    expect(await outstanding()).toHaveLength(1);
  });

  // Signing secrets at rest -----------------------------------------------------------------

  /** The bytes of the delivery database and its write-ahead log, as a thief would copy them. */
  function databaseBytes(): Buffer {
    const file = join(dataDir, 'delivery.sqlite');
    return Buffer.concat([file, `${file}-wal`].filter((path) => existsSync(path)).map((path) => readFileSync(path)));
  }

  it('keeps signing secrets sealed in the data file, under a key generated into DATA_DIR (0600), and signs with them after a restart', async () => {
    const good = await receiver();
    const destination = await createHttpDestination(good.url);
    const rotated = await request<DestinationWithSecretView>(deliveryCommands.rotateDestinationSecret, { formId: form.id, destinationId: destination.id });
    const keyFile = join(dataDir, 'delivery-secrets-key');
    expect(statSync(keyFile).mode & 0o777).toBe(0o600);
    for (const secret of [destination.secret, rotated.secret]) {
      expect(databaseBytes().includes(secret)).toBe(false);
      expect(databaseBytes().includes(secret.slice('whsec_'.length))).toBe(false);
    }
    const key = readFileSync(keyFile, 'utf8');

    await stopSystem();
    await startSystem();
    expect(readFileSync(keyFile, 'utf8')).toBe(key);
    await publish(submission());
    await waitFor(() => good.received.length === 1);
    expect(() => verified(rotated.secret, good.received[0]!)).not.toThrow();
    expect(() => verified(destination.secret, good.received[0]!)).not.toThrow();
  });

  it('refuses to start with a key that did not seal the secrets, saying so, and starts again with the right one', async () => {
    const good = await receiver();
    const destination = await createHttpDestination(good.url);
    await stopSystem();
    bus = new InProcessBus();
    const wrongKey = randomBytes(32).toString('base64');
    await expect(startDelivery({ bus, settings: settings({ DELIVERY_SECRETS_KEY: wrongKey }), logger }, { now })).rejects.toThrow(
      /sealed with key [0-9a-f]{8}, not with DELIVERY_SECRETS_KEY \(key [0-9a-f]{8}\)/,
    );
    await bus.close();

    await startSystem({ DELIVERY_SECRETS_KEY: readFileSync(join(dataDir, 'delivery-secrets-key'), 'utf8').trim() });
    await publish(submission());
    await waitFor(() => good.received.length === 1);
    expect(() => verified(destination.secret, good.received[0]!)).not.toThrow();
  });

  it('refuses to start when the generated key file was lost, naming the file', async () => {
    await createHttpDestination((await receiver()).url);
    await stopSystem();
    rmSync(join(dataDir, 'delivery-secrets-key'));
    bus = new InProcessBus();
    await expect(startDelivery({ bus, settings: settings(), logger }, { now })).rejects.toThrow(
      `not with the key in ${join(dataDir, 'delivery-secrets-key')} (key `,
    );
    await bus.close();
    services = [];
  });

  it('moves the secrets to a new key given with the old one as DELIVERY_SECRETS_PREVIOUS_KEY', async () => {
    const good = await receiver();
    const destination = await createHttpDestination(good.url);
    const oldKey = readFileSync(join(dataDir, 'delivery-secrets-key'), 'utf8').trim();
    const newKey = randomBytes(32).toString('base64');
    await stopSystem();
    await startSystem({ DELIVERY_SECRETS_KEY: newKey, DELIVERY_SECRETS_PREVIOUS_KEY: oldKey });
    await stopSystem();
    // Sealed again at that start: the new key alone opens them now.
    await startSystem({ DELIVERY_SECRETS_KEY: newKey });
    await publish(submission());
    await waitFor(() => good.received.length === 1);
    expect(() => verified(destination.secret, good.received[0]!)).not.toThrow();
  });

  it('refuses a malformed DELIVERY_SECRETS_KEY or retention setting, and no key with MongoDB, before anything starts', async () => {
    expect(() => settings({ DELIVERY_SECRETS_KEY: 'c2hvcnQ=' })).toThrow(
      'Invalid setting DELIVERY_SECRETS_KEY: must be 32 bytes in Base64 (e.g. `openssl rand -base64 32`)',
    );
    expect(() => settings({ DELIVERY_SECRETS_PREVIOUS_KEY: 'not base64 at all!' })).toThrow(/Invalid setting DELIVERY_SECRETS_PREVIOUS_KEY/);
    expect(() => secretCipherFromSettings(settings({ MONGO_URL: 'mongodb://127.0.0.1:1/x' }), logger)).toThrow(/DELIVERY_SECRETS_KEY is required with MONGO_URL/);
    expect(() => settings({ DELIVERY_RETENTION_DAYS: '0' })).toThrow(/^Invalid setting DELIVERY_RETENTION_DAYS/);
    expect(() => settings({ DELIVERY_SWEEP_INTERVAL_MS: 'hourly' })).toThrow(/^Invalid setting DELIVERY_SWEEP_INTERVAL_MS/);
    expect(settings({ DELIVERY_SECRETS_KEY: '' }).DELIVERY_SECRETS_KEY).toBeUndefined();
  });

  // Retention ----------------------------------------------------------------------------

  it('sweeps deliveries that ended past the retention, keeps recent and pending ones', async () => {
    await stopSystem();
    await startSystem({ DELIVERY_RETENTION_DAYS: '30', DELIVERY_SWEEP_INTERVAL_MS: '100' });
    const day = 24 * 3_600_000;
    const good = await receiver();
    const failing = await receiver((_, res) => {
      res.statusCode = 500;
      res.end();
    });
    const delivered = await createHttpDestination(good.url);
    const paused = await createHttpDestination(failing.url);
    await publish(submission());
    await waitFor(async () => (await deliveryLog(delivered.id)).deliveries[0]?.status === 'succeeded');
    // Failed once, then its destination turned off: pending, and never changed again.
    await waitFor(async () => (await deliveryLog(paused.id)).deliveries[0]?.attempts.length === 1);
    await request(deliveryCommands.updateDestination, { formId: form.id, destinationId: paused.id, destination: { active: false } });

    clockOffsetMs += 29 * day;
    await publish(submission());
    await waitFor(async () => (await deliveryLog(delivered.id)).deliveries.filter((d) => d.status === 'succeeded').length === 2);
    await new Promise((resolve) => setTimeout(resolve, 300)); // sweeps pass: nothing is 30 days old yet
    expect((await deliveryLog(delivered.id)).total_count).toBe(2);

    clockOffsetMs += 2 * day; // the first one ended 31 days ago, the second 2 days ago
    const log = await waitFor(async () => {
      const listed = await deliveryLog(delivered.id);
      return listed.total_count === 1 ? listed : undefined;
    }, { description: 'the sweep' });
    expect(log.deliveries[0]!.submission_id).toBe(submissionIds);
    expect((await deliveryLog(paused.id)).deliveries.map((d) => d.status)).toEqual(['pending']);
  });

  // A form deleted -------------------------------------------------------------------------

  /** A destination of the form with a delivery waiting for its retry (its receiver fails), and one of another form. */
  async function destinationsOfTwoForms() {
    const flaky = await receiver((_, res) => {
      res.statusCode = 500;
      res.end();
    });
    const destination = await createHttpDestination(flaky.url);
    const otherForm = await request<FormCreatedView>(directoryCommands.createForm, { definition: inspection });
    const kept = await request<DestinationWithSecretView>(deliveryCommands.createDestination, {
      formId: otherForm.id,
      destination: { format_selection: 'json_format', transport_selection: 'http_transport' },
      http_transport: { uri: flaky.url },
    });
    await publish(submission());
    await waitFor(async () => (await deliveryLog(destination.id)).deliveries[0]?.attempts.length === 1);
    return { flaky, destination, otherForm, kept };
  }

  it("removes a deleted form's destinations with their pending deliveries, which are never sent", async () => {
    const { flaky, destination, otherForm, kept } = await destinationsOfTwoForms();

    await request(directoryCommands.deleteForm, { formId: form.id });
    const remaining = () =>
      readOnlyCount('SELECT COUNT(*) AS n FROM destinations WHERE form_id = ?', form.id) + readOnlyCount('SELECT COUNT(*) AS n FROM deliveries WHERE form_id = ?', form.id);
    await waitFor(() => remaining() === 0, { description: "the form's destinations and deliveries removed" });
    // Its retry comes due: nothing is sent.
    clockOffsetMs += 6000;
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(flaky.received).toHaveLength(1);
    expect((await appErrorOf(request(deliveryCommands.getDestination, { formId: form.id, destinationId: destination.id }))).code).toBe('not_found');
    expect((await request<DestinationDetailView>(deliveryCommands.getDestination, { formId: otherForm.id, destinationId: kept.id })).id).toBe(kept.id);
    // The event again (at least once): nothing more to remove, nothing fails.
    await bus.publish(createEnvelope(directoryEvents.formDeleted, { orgId, formId: form.id }, { orgId }));
    expect((await request<DestinationView[]>(deliveryCommands.listDestinations, { formId: otherForm.id })).map((d) => d.id)).toEqual([kept.id]);
  });

  it("removes the destinations of a form deleted while the delivery service was down, whose announcement reached nobody", async () => {
    const { flaky, otherForm, kept } = await destinationsOfTwoForms();

    // The directory alone on a bus of its own deletes the form: its form.deleted reaches no
    // delivery service, as when a process dies between the delete and the announcement.
    await stopSystem();
    bus = new InProcessBus();
    services = [await startDirectoryService({ bus, settings: settings(), logger })];
    await bus.start();
    await request(directoryCommands.deleteForm, { formId: form.id });
    await stopSystem();

    await startSystem({ DELIVERY_SWEEP_INTERVAL_MS: '200' });
    const remaining = () =>
      readOnlyCount('SELECT COUNT(*) AS n FROM destinations WHERE form_id = ?', form.id) + readOnlyCount('SELECT COUNT(*) AS n FROM deliveries WHERE form_id = ?', form.id);
    expect(remaining()).toBe(2);
    await waitFor(() => remaining() === 0, { description: "the sweep removed the deleted form's destination and its delivery" });
    clockOffsetMs += 6000; // its retry comes due: nothing is sent
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(flaky.received).toHaveLength(1);
    expect((await request<DestinationView[]>(deliveryCommands.listDestinations, { formId: otherForm.id })).map((d) => d.id)).toEqual([kept.id]);
  });

  /** A count read from the delivery database beside the running service. */
  function readOnlyCount(sql: string, ...params: unknown[]): number {
    const db = new Database(join(dataDir, 'delivery.sqlite'), { readonly: true });
    try {
      return (db.prepare(sql).get(...params) as { n: number }).n;
    } finally {
      db.close();
    }
  }
});
