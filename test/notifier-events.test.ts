import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { Redis } from 'ioredis';
import pino from 'pino';
import { AmqpBus, InProcessBus, InProcessBroker, type Bus } from '@formcast/bus';
import {
  createEnvelope,
  notifierCommands,
  pushEvents,
  type BadgeView,
  type Envelope,
  type OneshotEventPayload,
  type PushEventType,
} from '@formcast/contracts';
import { foundOrganization, newEnrolledDevice, registerDirectoryService, SqliteDirectoryStore } from '@formcast/directory';
import { FirebaseNotificationSender, notifierServiceName, startNotifier } from '@formcast/notifier';
import { createLogger, parseSettings, type RunningService } from '@formcast/platform';
import { deleteTestTopology, uniqueName, waitFor } from '@formcast/testing';
import { FcmStandIn, fcmError, fixedTokenCredential } from './support/fcm-stand-in';
import { amqpUrl } from './support/start-system';

type Mode = 'embedded (in-process bus, SQLite badges)' | 'separate peers (RabbitMQ, Redis badges)';
const modes: Mode[] = ['embedded (in-process bus, SQLite badges)', 'separate peers (RabbitMQ, Redis badges)'];
const redisUrl = process.env['REDIS_URL'] || 'redis://127.0.0.1:6379';
const busOptions = { maxAttempts: 3, retryDelayMs: 20 };

/** Log lines of the notifier, parsed. */
function capturingLogger() {
  const lines: Array<Record<string, any>> = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString('utf8').split('\n').filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  return { logger: pino({ level: 'info' }, sink), lines };
}

describe.each(modes)('Notifier on push events (%s)', (mode) => {
  const quiet = createLogger({ level: 'silent' });
  const log = capturingLogger();
  const dataDir = mkdtempSync(join(tmpdir(), 'notifier-events-'));
  const topologyPrefix = uniqueName('e2e_notifier');
  const keyPrefix = `${uniqueName('test_notifier')}:`;
  const buses: Bus[] = [];
  let bus: Bus; // the test's own peer: publishes events, asks for badges
  let directory: SqliteDirectoryStore;
  let notifier: RunningService;
  let standIn: FcmStandIn;
  let orgId: number;

  const newBus = (): Bus => {
    const created =
      mode === 'embedded (in-process bus, SQLite badges)'
        ? new InProcessBus({ ...busOptions, logger: quiet, broker })
        : new AmqpBus({ ...busOptions, url: amqpUrl, logger: quiet, prefix: topologyPrefix });
    buses.push(created);
    return created;
  };
  const broker = new InProcessBroker();

  beforeAll(async () => {
    standIn = await FcmStandIn.start();
    directory = new SqliteDirectoryStore(':memory:');
    const directoryBus = newBus();
    registerDirectoryService(directoryBus, { store: directory, formNamespaceBase: 'http://formcast.local' });

    const notifierBus = newBus();
    const settings = parseSettings({
      DATA_DIR: dataDir,
      LOG_LEVEL: 'silent',
      ...(mode === 'separate peers (RabbitMQ, Redis badges)' ? { REDIS_URL: redisUrl } : {}),
    });
    const sender = new FirebaseNotificationSender({
      credential: fixedTokenCredential(),
      projectId: standIn.projectId,
      httpAgent: standIn.agent(),
    });
    notifier = await startNotifier({ bus: notifierBus, settings, logger: log.logger }, { sender, redisKeyPrefix: keyPrefix });

    bus = newBus();
    for (const peer of buses) await peer.start();
    const { organization } = await directory.organizations.create(
      foundOrganization({ name: 'Acme', enrollmentCodeHash: uniqueName('code'), tokenHash: uniqueName('hash') }, new Date().toISOString()),
    );
    orgId = organization.id;
  });

  afterEach(() => standIn.clear());

  afterAll(async () => {
    for (const peer of buses) await peer.close();
    await notifier?.stop();
    await directory?.close();
    await standIn?.close();
    if (mode === 'separate peers (RabbitMQ, Redis badges)') {
      await deleteTestTopology(amqpUrl, topologyPrefix, ['directory', notifierServiceName]);
      const redis = new Redis(redisUrl);
      const keys = await redis.keys(`${keyPrefix}*`);
      if (keys.length > 0) await redis.del(...keys);
      await redis.quit();
    }
    rmSync(dataDir, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
  });

  async function newDevice(pushToken: string | null) {
    const device = await directory.devices.enroll(
      newEnrolledDevice(
        { orgId, identifier: uniqueName('Android'), owner: 'Sam', description: '', pushToken, secretHash: uniqueName('secret') },
        await directory.groups.defaultGroupId(orgId),
        new Date().toISOString(),
      ),
    );
    let oneshotId = 0;
    const event = (type: PushEventType, oneshot: number, extra: Partial<OneshotEventPayload> = {}): Envelope<OneshotEventPayload> =>
      createEnvelope(
        type,
        {
          oneshotId: oneshot,
          orgId,
          deviceId: device.id,
          deviceIdentifier: device.identifier,
          pushToken,
          name: `Inspection ${oneshot}`,
          description: 'Call ahead',
          namespace: `http://formcast.local/xforms/template?${oneshot}`,
          ...extra,
        },
        { orgId },
      );
    return {
      ...device,
      nextOneshotId: () => device.id * 1000 + ++oneshotId,
      event,
      badge: async () =>
        (await bus.request<BadgeView>(createEnvelope(notifierCommands.getBadge, { deviceId: device.id }, { orgId }))).badge,
      /** The messages the stand-in got for this device, oldest first. */
      messages: () => (pushToken ? standIn.messagesTo(pushToken) : []),
    };
  }

  /** Waits until the device's latest notification carries `badge`, and returns it. */
  async function latestWithBadge(device: Awaited<ReturnType<typeof newDevice>>, badge: number) {
    return waitFor(
      () => {
        const latest = device.messages().at(-1);
        return latest && latest['apns'].payload.aps.badge === badge ? latest : undefined;
      },
      { description: `a notification with badge ${badge}` },
    );
  }

  it('keeps the badge and notifies the device on every change: an alert for a new oneshot, a silent badge update otherwise', async () => {
    const device = await newDevice(uniqueName('token'));
    const [first, second] = [device.nextOneshotId(), device.nextOneshotId()];

    await bus.publish(device.event(pushEvents.oneshotCreated, first));
    const created = await latestWithBadge(device, 1);
    expect(created['notification']).toEqual({ title: `Inspection ${first}`, body: 'Call ahead' });
    expect(created['android'].notification.notification_count).toBe(1);
    expect(await device.badge()).toBe(1);

    await bus.publish(device.event(pushEvents.oneshotCreated, second));
    expect((await latestWithBadge(device, 2))['data']).toMatchObject({ kind: 'oneshot', oneshot_id: String(second) });

    await bus.publish(device.event(pushEvents.oneshotUpdated, second, { name: 'Renamed' }));
    await waitFor(() => device.messages().length >= 3, { description: 'the update notification' });
    expect(device.messages()[2]).toMatchObject({ data: { kind: 'badge', badge: '2' }, apns: { payload: { aps: { badge: 2 } } } });
    expect(device.messages()[2]!['notification']).toBeUndefined();

    await bus.publish(device.event(pushEvents.oneshotCompleted, first));
    expect((await latestWithBadge(device, 1))['notification']).toBeUndefined();
    await bus.publish(device.event(pushEvents.oneshotRevoked, second));
    expect((await latestWithBadge(device, 0))['data']).toMatchObject({ kind: 'badge', badge: '0' });
    expect(await device.badge()).toBe(0);

    const collapseKeys = new Set(device.messages().map((m) => m['android'].collapse_key));
    expect([...collapseKeys]).toEqual([`formcast-badge-${orgId}-${device.id}`]);
  });

  it('never miscounts duplicated, redelivered or reordered events, announces a oneshot once, and nothing that has ended', async () => {
    const device = await newDevice(uniqueName('token'));
    const [kept, ended, late] = [device.nextOneshotId(), device.nextOneshotId(), device.nextOneshotId()];
    const createdKept = device.event(pushEvents.oneshotCreated, kept);
    /** Publishes one event and waits for the one notification it causes. */
    const publish = async (event: Envelope) => {
      const before = device.messages().length;
      await bus.publish(event);
      await waitFor(() => device.messages().length > before, { description: `the notification for ${event.type}` });
      expect(device.messages()).toHaveLength(before + 1);
      const message = device.messages().at(-1)!;
      return { badge: message['apns'].payload.aps.badge as number, kind: message['data'].kind as string };
    };

    expect(await publish(createdKept)).toEqual({ badge: 1, kind: 'oneshot' });
    // Copies carry the badge silently: a oneshot is announced once.
    expect(await publish(createdKept)).toEqual({ badge: 1, kind: 'badge' }); // the same envelope again (the outbox sent it twice)
    expect(await publish(device.event(pushEvents.oneshotCreated, kept))).toEqual({ badge: 1, kind: 'badge' }); // published twice
    expect(await publish(device.event(pushEvents.oneshotCreated, ended))).toEqual({ badge: 2, kind: 'oneshot' });
    expect(await publish(device.event(pushEvents.oneshotCompleted, ended))).toEqual({ badge: 1, kind: 'badge' });
    expect(await publish(device.event(pushEvents.oneshotCompleted, ended))).toEqual({ badge: 1, kind: 'badge' });
    expect(await publish(device.event(pushEvents.oneshotUpdated, ended))).toEqual({ badge: 1, kind: 'badge' });
    expect(await publish(device.event(pushEvents.oneshotRevoked, late))).toEqual({ badge: 1, kind: 'badge' });
    // Its `created` comes after its end: counted nowhere, announced to nobody.
    expect(await publish(device.event(pushEvents.oneshotCreated, late))).toEqual({ badge: 1, kind: 'badge' });
    expect(await device.badge()).toBe(1);
  });

  const withReplicas = mode === 'separate peers (RabbitMQ, Redis badges)' ? it : it.skip;
  withReplicas('announces a oneshot once when copies of its created reach two notifier replicas (one Redis)', async () => {
    const replicaBus = new AmqpBus({ ...busOptions, url: amqpUrl, logger: quiet, prefix: topologyPrefix });
    const settings = parseSettings({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', REDIS_URL: redisUrl });
    let sentByReplica = 0;
    const sender = new (class extends FirebaseNotificationSender {
      override sendEach(batch: Parameters<FirebaseNotificationSender['sendEach']>[0]) {
        sentByReplica += batch.length;
        return super.sendEach(batch);
      }
    })({ credential: fixedTokenCredential(), projectId: standIn.projectId, httpAgent: standIn.agent() });
    const replica = await startNotifier({ bus: replicaBus, settings, logger: quiet }, { sender, redisKeyPrefix: keyPrefix });
    await replicaBus.start();
    try {
      const device = await newDevice(uniqueName('token'));
      const oneshot = device.nextOneshotId();
      const created = device.event(pushEvents.oneshotCreated, oneshot);
      // The broker hands the copies to the two replicas in turn; each copy brings one notification.
      for (let copy = 1; copy <= 6; copy++) {
        await bus.publish(copy % 3 === 0 ? device.event(pushEvents.oneshotCreated, oneshot) : created);
        await waitFor(() => device.messages().length === copy, { description: `the notification for copy ${copy}` });
      }
      expect(device.messages().map((m) => m['data'].kind)).toEqual(['oneshot', 'badge', 'badge', 'badge', 'badge', 'badge']);
      expect(device.messages().map((m) => m['apns'].payload.aps.badge)).toEqual([1, 1, 1, 1, 1, 1]);
      expect(sentByReplica).toBeGreaterThan(0); // both replicas took copies
      expect(sentByReplica).toBeLessThan(6);
    } finally {
      await replica.stop();
      await replicaBus.close();
    }
  });

  it('keeps the badge of a device without a push token and sends it nothing', async () => {
    const silent = await newDevice(null);
    await bus.publish(silent.event(pushEvents.oneshotCreated, silent.nextOneshotId()));
    await bus.publish(silent.event(pushEvents.oneshotCreated, silent.nextOneshotId()));
    await waitFor(async () => (await silent.badge()) === 2, { description: 'badge 2 without a token' });

    const marker = await newDevice(uniqueName('token'));
    await bus.publish(marker.event(pushEvents.oneshotCreated, marker.nextOneshotId()));
    await latestWithBadge(marker, 1);
    expect(standIn.received.map((r) => r.body.message['data'].device_identifier)).toEqual([marker.identifier]);
  });

  it('clears a token FCM no longer knows in the directory, without retrying', async () => {
    const staleToken = uniqueName('stale');
    const device = await newDevice(staleToken);
    standIn.respondWith((request) => (request.body.message['token'] === staleToken ? fcmError('UNREGISTERED') : undefined));

    await bus.publish(device.event(pushEvents.oneshotCreated, device.nextOneshotId()));
    await waitFor(async () => (await directory.devices.get(orgId, device.id))?.pushToken === null, {
      description: 'the token cleared in the directory',
    });
    expect(await device.badge()).toBe(1);

    const marker = await newDevice(uniqueName('token'));
    await bus.publish(marker.event(pushEvents.oneshotCreated, marker.nextOneshotId()));
    await latestWithBadge(marker, 1);
    expect(device.messages()).toHaveLength(1);
    expect(await bus.deadLetters(notifierServiceName)).toEqual([]);
  });

  it('logs a message FCM refuses as invalid, without retrying', async () => {
    const badToken = uniqueName('malformed');
    const device = await newDevice(badToken);
    standIn.respondWith((request) => (request.body.message['token'] === badToken ? fcmError('INVALID_ARGUMENT') : undefined));

    const created = device.event(pushEvents.oneshotCreated, device.nextOneshotId());
    await bus.publish(created);
    const line = await waitFor(() => log.lines.find((l) => l['eventId'] === created.id), { description: 'the log line' });
    expect(line).toMatchObject({
      level: 40,
      msg: 'FCM refused the notification; not retried',
      code: 'messaging/invalid-argument',
      deviceId: device.id,
      service: 'notifier',
    });

    const marker = await newDevice(uniqueName('token'));
    await bus.publish(marker.event(pushEvents.oneshotCreated, marker.nextOneshotId()));
    await latestWithBadge(marker, 1);
    expect(device.messages()).toHaveLength(1);
    expect(await bus.deadLetters(notifierServiceName)).toEqual([]);
    expect((await directory.devices.get(orgId, device.id))?.pushToken).toBe(badToken);
  });

  it('tries a rate-limited notification again once the Retry-After has passed, and delivers it', async () => {
    const device = await newDevice(uniqueName('token'));
    let refusals = 1;
    standIn.respondWith(() => (refusals-- > 0 ? fcmError('QUOTA_EXCEEDED', { 'retry-after': '1' }) : undefined));

    await bus.publish(device.event(pushEvents.oneshotCreated, device.nextOneshotId()));
    await waitFor(() => device.messages().length === 2, { timeoutMs: 10_000, description: 'the second attempt' });
    const [refused, delivered] = standIn.received;
    expect(delivered!.at - refused!.at).toBeGreaterThanOrEqual(990);
    const { apns: retriedApns, ...retried } = delivered!.body.message;
    const { apns: firstApns, ...first } = refused!.body.message;
    expect(retried).toEqual(first);
    expect(retriedApns.payload).toEqual(firstApns.payload);
    expect(Number(retriedApns.headers['apns-expiration'])).toBeGreaterThanOrEqual(Number(firstApns.headers['apns-expiration']));
    expect(await device.badge()).toBe(1);
    expect(await bus.deadLetters(notifierServiceName)).toEqual([]);
  });

  it('dead-letters a notification FCM keeps refusing with a retryable error, after the last attempt', async () => {
    const device = await newDevice(uniqueName('token'));
    standIn.respondWith(() => fcmError('INTERNAL'));

    const created = device.event(pushEvents.oneshotCreated, device.nextOneshotId());
    await bus.publish(created);
    const deadLetters = await waitFor(
      async () => {
        const letters = await bus.deadLetters(notifierServiceName);
        return letters.some((letter) => letter.id === created.id) ? letters : undefined;
      },
      { timeoutMs: 10_000, description: 'the event dead-lettered' },
    );
    expect(deadLetters.map((letter) => letter.id)).toEqual([created.id]);
    expect(device.messages()).toHaveLength(busOptions.maxAttempts);
    expect(await device.badge()).toBe(1);
  });
});
