import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AmqpBus, InProcessBus, type Bus } from '@formcast/bus';
import { pushEvents, type Envelope, type OneshotEventPayload } from '@formcast/contracts';
import { parseExposition, renderMetrics, sampleValue } from '@formcast/metrics';
import { createLogger } from '@formcast/platform';
import { deleteTestTopology, uniqueName, waitFor } from '@formcast/testing';
import { oneshotEvent } from '../src/domain/oneshot-events';
import { newOneshot as buildOneshot, revokedOneshot } from '../src/domain/oneshot-lifecycle';
import type { NewOneshot, Oneshot } from '../src/domain/records';
import { OutboxRelay } from '../src/outbox/outbox-relay';
import { SqlitePushStore } from '../src/store/sqlite-push-store';
import { oneshotRequestFor } from './support/oneshot-fixtures';

const logger = createLogger({ level: 'silent' });
const amqpUrl = process.env.AMQP_URL ?? 'amqp://guest:guest@127.0.0.1:5672';

const now = () => new Date().toISOString();

const newOneshot = (deviceId: number): NewOneshot => buildOneshot(oneshotRequestFor(deviceId), now());

describe('outbox relay', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'formcast-outbox-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 }));

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
    const revoke = (current: Oneshot | null) => revokedOneshot(current, { oneshotId: created.id, deviceId: 7 }, now());
    await dying.change(1, created.id, revoke, oneshotEvent(pushEvents.oneshotRevoked, 'tok', 'req-2'), randomUUID());
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
      expect(seen.map((e) => [e.type, e.payload.oneshotId])).toEqual([
        [pushEvents.oneshotCreated, created.id],
        [pushEvents.oneshotRevoked, created.id],
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

  it('publishes what commits in its process without reading the outbox back, and reads it for a backlog of more than a batch', async () => {
    const store = new SqlitePushStore(join(dir, 'push.sqlite'));
    let reads = 0;
    const read = store.unpublishedEvents.bind(store);
    store.unpublishedEvents = (limit) => {
      reads += 1;
      return read(limit);
    };
    const bus = new InProcessBus();
    const seen = collect(bus, 'listener');
    await bus.start();
    const relay = new OutboxRelay(store, bus, logger, { batchSize: 5 });
    const create = (device: number) => store.create(newOneshot(device), oneshotEvent(pushEvents.oneshotCreated, null, 'r'), randomUUID());
    try {
      relay.start();
      await waitFor(() => reads === 1, { timeoutMs: 2000, description: 'the read at the start' });
      for (const device of [1, 2, 3]) await create(device);
      await waitFor(() => seen.length === 3, { timeoutMs: 5000 });
      await waitFor(async () => (await read(10)).length === 0, { timeoutMs: 5000, description: 'the outbox emptied' });
      expect(reads).toBe(1);

      // Twelve in one turn, more than a batch of 5: read from the outbox, each once.
      await Promise.all(Array.from({ length: 12 }, (_, i) => create(10 + i)));
      await waitFor(() => seen.length === 15, { timeoutMs: 5000 });
      expect(reads).toBeGreaterThan(1);
      await waitFor(async () => (await read(20)).length === 0, { timeoutMs: 5000, description: 'the outbox emptied again' });
      expect(seen.map((e) => e.payload.deviceId).sort((a, b) => a - b)).toEqual([1, 2, 3, ...Array.from({ length: 12 }, (_, i) => 10 + i)]);
      expect(new Set(seen.map((e) => e.id)).size).toBe(15);
    } finally {
      await relay.stop();
      await store.close();
      await bus.close();
    }
  });

  it('shows its backlog and the age of its oldest event in the metrics while it runs', async () => {
    const gauges = async () => {
      const samples = parseExposition((await renderMetrics()).body);
      return { backlog: sampleValue(samples, 'formcast_outbox_backlog'), age: sampleValue(samples, 'formcast_outbox_oldest_age_seconds') };
    };
    const store = new SqlitePushStore(join(dir, 'push.sqlite'));
    const bus = new InProcessBus();
    collect(bus, 'listener');
    const relay = new OutboxRelay(store, bus, logger, { pollMs: 20, retryMs: 10 });
    try {
      relay.start();
      const writtenAt = Date.now();
      for (const device of [1, 2, 3]) {
        await store.create(newOneshot(device), oneshotEvent(pushEvents.oneshotCreated, null, 'r'), randomUUID());
      }
      // The bus is not started: nothing can be published.
      await waitFor(async () => (await gauges()).backlog === 3, { timeoutMs: 5000, description: 'a backlog of 3' });
      await waitFor(async () => (await gauges()).age >= 0.5, { timeoutMs: 5000, description: 'the oldest event aging' });
      expect((await gauges()).age).toBeLessThanOrEqual((Date.now() - writtenAt) / 1000 + 1);

      await bus.start();
      await waitFor(async () => (await gauges()).backlog === 0, { timeoutMs: 5000, description: 'the backlog published' });
      expect((await gauges()).age).toBe(0);
    } finally {
      await relay.stop();
      await store.close();
      await bus.close();
    }
  });
});
