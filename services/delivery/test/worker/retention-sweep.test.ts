import { randomUUID } from 'node:crypto';
import pino from 'pino';
import { attemptOutcome } from '../../src/domain/attempt-outcome';
import { newSigningSecrets } from '../../src/domain/signing-secrets';
import { SecretCipher } from '../../src/secrets';
import { SqliteDeliveryStore } from '../../src/store';
import { RetentionSweep } from '../../src/worker/retention-sweep';

const day = 24 * 3_600_000;
const t0 = Date.parse('2026-03-01T00:00:00.000Z');

describe('RetentionSweep', () => {
  it('removes every delivery ended before the retention, in batches, and keeps the pending ones', async () => {
    const store = new SqliteDeliveryStore(':memory:', new SecretCipher(Buffer.alloc(32, 5)));
    try {
      const destination = await store.destinations.createDestination(
        { orgId: 1, formId: 2, description: null, format: 'json_format', formatParameters: {}, transport: { type: 'http_transport', parameters: { uri: 'https://example.com/' } }, secrets: newSigningSecrets() },
        randomUUID(),
      );
      const deliveries = (from: number, count: number) =>
        Array.from({ length: count }, (_, i) => ({ orgId: 1, formId: 2, destinationId: destination.id, submissionId: from + i, webhookId: `msg_${from + i}`, contentType: 'application/json', body: '{}' }));
      await store.queue.createDeliveries(deliveries(1, 7), t0);
      for (const claim of await store.queue.claim((await store.queue.dueDeliveries(t0, 100, 100)).map((c) => c.id), t0, t0 + 60_000)) {
        await store.queue.recordAttempt(
          { deliveryId: claim.delivery.id, claimToken: claim.claimToken },
          { attemptedAt: new Date(t0).toISOString(), statusCode: 200, durationMs: 1, responseBody: null, error: null },
          attemptOutcome({ kind: 'delivered' }, 1, t0),
        );
      }
      await store.queue.createDeliveries(deliveries(100, 2), t0); // never attempted: pending

      const sweep = new RetentionSweep(store, { retentionMs: 90 * day, intervalMs: 60_000, batchSize: 3, now: () => t0 + 91 * day, logger: pino({ level: 'silent' }) });
      expect(await sweep.sweepOnce()).toBe(7);
      expect(await sweep.sweepOnce()).toBe(0);
      const left = await store.queue.listDeliveries(1, 2, destination.id, { offset: 0, limit: 10 });
      expect(left.deliveries.map((d) => [d.submissionId, d.status])).toEqual([
        [101, 'pending'],
        [100, 'pending'],
      ]);
    } finally {
      await store.close();
    }
  });
});
