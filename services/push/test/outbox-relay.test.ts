import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AmqpBus, InProcessBus, type Bus } from '@formcast/bus';
import { pushEvents, type Envelope, type OneshotEventPayload } from '@formcast/contracts';
import { createLogger } from '@formcast/platform';
import { deleteTestTopology, uniqueName, waitFor } from '@formcast/testing';
import { oneshotEvent } from '../src/domain/oneshot-events';
import { OutboxRelay } from '../src/outbox/outbox-relay';
import { SqlitePushStore } from '../src/store/sqlite-push-store';
import type { NewOneshot } from '../src/store/push-store';

const logger = createLogger({ level: 'silent' });
const amqpUrl = process.env.AMQP_URL ?? 'amqp://guest:guest@127.0.0.1:5672';

const newOneshot = (deviceId: number): NewOneshot => ({
  orgId: 1,
  deviceId,
  deviceIdentifier: `Android_${deviceId}`,
  formId: 1,
  templateNamespace: 'http://x/xforms/1',
  namespace: `http://x/xforms/1?${deviceId}`,
  name: 'Form',
  description: '',
  payload: {},
});

describe('outbox relay', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'formcast-outbox-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  function collect(bus: Bus, service: string): Envelope<OneshotEventPayload>[] {
    const seen: Envelope<OneshotEventPayload>[] = [];
    for (const type of Object.values(pushEvents)) {
      bus.subscribe(service, type, async (event) => {
        seen.push(event as Envelope<OneshotEventPayload>);
      });
    }
    return seen;
  }

  it('publishes, after a restart, events written by a process that died before publishing them (RabbitMQ)', async () => {
    const file = join(dir, 'push.sqlite');
    // The first process: the write commits with its outbox row, then the process is gone.
    const dying = new SqlitePushStore(file);
    const created = await dying.create(newOneshot(7), oneshotEvent(pushEvents.oneshotCreated, 'tok', 'req-1'), randomUUID());
    await dying.revoke(1, 7, created.id, oneshotEvent(pushEvents.oneshotRevoked, 'tok', 'req-2'), randomUUID());
    await dying.close();

    const prefix = uniqueName('outbox');
    const consumerBus = new AmqpBus({ url: amqpUrl, logger, prefix });
    const seen = collect(consumerBus, 'listener');
    await consumerBus.start();
    const publisherBus = new AmqpBus({ url: amqpUrl, logger, prefix });
    await publisherBus.start();
    const store = new SqlitePushStore(file);
    const relay = new OutboxRelay(store, publisherBus, logger, { pollMs: 50 });
    try {
      relay.start();
      await waitFor(() => seen.length === 2, { timeoutMs: 10000 });
      expect(seen.map((e) => [e.type, e.payload.oneshotId, e.payload.outstandingCount])).toEqual([
        [pushEvents.oneshotCreated, created.id, 1],
        [pushEvents.oneshotRevoked, created.id, 0],
      ]);
      await waitFor(async () => (await store.unpublishedEvents(10)).length === 0, { timeoutMs: 5000 });
    } finally {
      await relay.stop();
      await store.close();
      await publisherBus.close();
      await consumerBus.close();
      await deleteTestTopology(amqpUrl, prefix, ['listener']);
    }
  });

  it('keeps events while the bus is down and publishes them, in order, once it is up', async () => {
    const store = new SqlitePushStore(join(dir, 'push.sqlite'));
    const bus = new InProcessBus();
    const seen = collect(bus, 'listener');
    const relay = new OutboxRelay(store, bus, logger, { pollMs: 20, retryMs: 10 });
    try {
      relay.start();
      for (const device of [1, 2, 3]) {
        await store.create(newOneshot(device), oneshotEvent(pushEvents.oneshotCreated, null, 'r'), randomUUID());
      }
      relay.wake();
      // Not started: every publish fails, nothing is lost.
      await waitFor(async () => (await store.unpublishedEvents(10)).length === 3, { timeoutMs: 2000 });
      expect(seen).toEqual([]);
      await bus.start();
      await waitFor(() => seen.length === 3, { timeoutMs: 5000 });
      expect(seen.map((e) => e.payload.deviceId)).toEqual([1, 2, 3]);
      expect(await store.unpublishedEvents(10)).toEqual([]);
    } finally {
      await relay.stop();
      await store.close();
      await bus.close();
    }
  });
});
