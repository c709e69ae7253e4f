import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { InProcessBus } from '@formcast/bus';
import { waitFor } from '@formcast/testing';
import { newSigningSecrets } from '../../src/domain/signing-secrets';
import { HttpSender } from '../../src/sender/http-sender';
import { SecretCipher } from '../../src/secrets';
import { SqliteDeliveryStore } from '../../src/store';

const testCipher = new SecretCipher(Buffer.alloc(32, 7));
import { attemptDelivery } from '../../src/worker/attempt-delivery';
import { DeliveryWorker } from '../../src/worker/delivery-worker';
import { startReceiver, type LocalReceiver } from '../sender/local-receiver';

const logger = pino({ level: 'silent' });

/** A worker on `store` (a replica), sending to local receivers; stopped with its sender after the test. */
function startableWorker(store: SqliteDeliveryStore, closers: Array<() => Promise<void>>, limits: { perDestination: number; pollMs: number }): DeliveryWorker {
  const http = new HttpSender({ timeoutMs: 2000, allowPrivateNetworks: true });
  const worker = new DeliveryWorker(store, attemptDelivery({ http, bus: new InProcessBus(), commandTimeoutMs: 1000, now: Date.now }), {
    concurrency: 4,
    perDestination: limits.perDestination,
    perOrganization: 8,
    leaseMs: 30_000,
    pollMs: limits.pollMs,
    logger,
  });
  closers.push(async () => {
    await worker.stop();
    await http.close();
    await store.close();
  });
  return worker;
}

async function destinationTo(store: SqliteDeliveryStore, receiver: LocalReceiver) {
  return store.destinations.createDestination(
    {
      orgId: 1,
      formId: 2,
      description: null,
      format: 'json_format',
      formatParameters: {},
      transport: { type: 'http_transport', parameters: { uri: receiver.url } },
      secrets: newSigningSecrets(),
    },
    randomUUID(),
  );
}

async function createDeliveries(store: SqliteDeliveryStore, destinationId: number, submissionIds: number[]): Promise<void> {
  await store.queue.createDeliveries(
    submissionIds.map((id) => ({
      orgId: 1,
      formId: 2,
      destinationId,
      submissionId: id,
      webhookId: `msg_${id}`,
      contentType: 'application/json',
      body: `{"n":${id}}`,
    })),
    Date.now(),
  );
}

async function allSucceeded(store: SqliteDeliveryStore, destinationId: number): Promise<boolean> {
  return (await store.queue.listDeliveries(1, 2, destinationId, { offset: 0, limit: 100 })).deliveries.every((d) => d.status === 'succeeded');
}

describe('delivery workers', () => {
  let dir: string;
  let receiver: LocalReceiver;
  const closers: Array<() => Promise<void>> = [];

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'delivery-worker-'));
  });

  afterEach(async () => {
    for (const close of closers.splice(0).reverse()) await close();
    await receiver.close();
    rmSync(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
  });

  describe('two on one store (two replicas)', () => {
    it('sends each delivery once between them', async () => {
      receiver = await startReceiver((_, res) => setTimeout(() => res.end('ok'), 5));
      const file = join(dir, 'delivery.sqlite');
      const [one, two] = [new SqliteDeliveryStore(file, testCipher), new SqliteDeliveryStore(file, testCipher)];
      const workers = [one, two].map((store) => startableWorker(store, closers, { perDestination: 3, pollMs: 10 }));
      const destination = await destinationTo(one, receiver);
      const count = 40;
      await createDeliveries(one, destination.id, Array.from({ length: count }, (_, i) => i + 1));
      for (const worker of workers) worker.start();
      await waitFor(() => allSucceeded(one, destination.id), { timeoutMs: 10_000, description: 'every delivery succeeded' });
      const ids = receiver.received.map((request) => request.headers['webhook-id']);
      expect(ids).toHaveLength(count);
      expect(new Set(ids).size).toBe(count);
    });
  });

  describe('one, woken rather than polling', () => {
    /** A worker that never polls in a test's time, on a store whose passes (reads of due deliveries) are counted. */
    async function wokenWorker(perDestination: number, answer?: Parameters<typeof startReceiver>[0]) {
      receiver = await startReceiver(answer);
      const store = new SqliteDeliveryStore(join(dir, 'delivery.sqlite'), testCipher);
      let passes = 0;
      const dueDeliveries = store.queue.dueDeliveries.bind(store);
      store.queue.dueDeliveries = (...args) => {
        passes += 1;
        return dueDeliveries(...args);
      };
      const worker = startableWorker(store, closers, { perDestination, pollMs: 60_000 });
      const destination = await destinationTo(store, receiver);
      const deliver = async (submissionIds: number[]) => {
        await createDeliveries(store, destination.id, submissionIds);
        worker.wake();
      };
      const done = async () => (await allSucceeded(store, destination.id)) && worker.busy === 0;
      return { worker, deliver, done, passes: () => passes };
    }

    it('makes one pass for a delivery when it took all that was due: the attempt ending wakes none', async () => {
      const { worker, deliver, done, passes } = await wokenWorker(3);
      worker.start();
      await waitFor(() => passes() === 1, { description: 'the first pass' });
      await deliver([1]);
      await waitFor(done, { description: 'the delivery succeeded' });
      await deliver([2]);
      await waitFor(done, { description: 'the second delivery succeeded' });
      expect(receiver.received).toHaveLength(2);
      expect(passes()).toBe(3);
    });

    it("takes what a destination's limit held back as soon as an attempt ends, without waiting for the poll", async () => {
      const { worker, deliver, done } = await wokenWorker(1);
      worker.start();
      await deliver([1, 2, 3, 4, 5]);
      await waitFor(done, { timeoutMs: 5000, description: 'every delivery succeeded, one at a time' });
      expect(receiver.received.map((request) => request.headers['webhook-id'])).toEqual(['msg_1', 'msg_2', 'msg_3', 'msg_4', 'msg_5']);
    });

    it("hands a destination's backlog from each attempt's record to the next, within its limit, without a pass each", async () => {
      let open = 0;
      let mostOpen = 0;
      const { worker, deliver, done, passes } = await wokenWorker(2, (_, res) => {
        open += 1;
        mostOpen = Math.max(mostOpen, open);
        setTimeout(() => {
          open -= 1;
          res.end('ok');
        }, 5);
      });
      worker.start();
      await waitFor(() => passes() === 1, { description: 'the first pass' });
      const count = 12;
      await deliver(Array.from({ length: count }, (_, i) => i + 1));
      await waitFor(done, { timeoutMs: 5000, description: 'every delivery succeeded' });
      const ids = receiver.received.map((request) => request.headers['webhook-id']);
      expect(new Set(ids).size).toBe(count);
      expect(ids).toHaveLength(count);
      // The pass the deliveries woke took two; the other ten were handed over, the two
      // chains' ends woke one more pass (finding nothing): no pass per delivery.
      expect(passes()).toBeLessThanOrEqual(4);
      expect(mostOpen).toBe(2);
    });
  });

  describe('one, stopped while an attempt is under way', () => {
    it('hands the freed slot nothing: what is due stays due, unleased, for the next start', async () => {
      let answerFirst: (() => void) | null = null;
      receiver = await startReceiver((_, res, index) => {
        if (index === 0) answerFirst = () => res.end('ok');
        else res.end('ok');
      });
      const store = new SqliteDeliveryStore(join(dir, 'delivery.sqlite'), testCipher);
      const worker = startableWorker(store, closers, { perDestination: 1, pollMs: 60_000 });
      const destination = await destinationTo(store, receiver);
      await createDeliveries(store, destination.id, [1, 2, 3]);
      worker.start();
      await waitFor(() => answerFirst !== null, { description: 'the first attempt under way' });
      const stopped = worker.stop();
      answerFirst!();
      await stopped;
      expect(receiver.received).toHaveLength(1);
      expect((await store.queue.dueDeliveries(Date.now(), 8, 10)).map((candidate) => candidate.id)).toHaveLength(2);
    });
  });
});
