import type { Connection } from 'mongoose';
import { AppError } from '@formcast/platform';
import { retryStart, type StartRetryOptions } from '@formcast/storage';
import type { ClaimOutcome, IdempotencyStore, KeyRequest, StoredReply } from './idempotency-store';
import { MongoKeyCollection } from './mongo-key-collection';

/** Claims that lost a race to another write of the same key try again this often, then give up (503). */
const maxClaimAttempts = 5;

export interface MongoIdempotencyStoreOptions {
  /** Whether `close()` closes the connection (true): false for a service's connection its own store closes. */
  ownsConnection?: boolean;
}

/**
 * Idempotency keys on MongoDB, in the owning service's database. A claim reads the key,
 * decides (`decideClaim`) and writes conditionally on what it read: an insert meets a racing
 * one at the unique index {orgId, key}, a replace or reclaim matches only the version it
 * read; the loser reads again. Expired keys are deleted by a TTL index (and by `prune`);
 * until then claims treat them as absent.
 */
export class MongoIdempotencyStore implements IdempotencyStore {
  private readonly keys: MongoKeyCollection;
  private readonly ownsConnection: boolean;

  constructor(
    private readonly connection: Connection,
    options: MongoIdempotencyStoreOptions = {},
  ) {
    this.keys = new MongoKeyCollection(connection);
    this.ownsConnection = options.ownsConnection ?? true;
  }

  /**
   * The collection and its indexes in place, retried, or a rejection saying why: `openStore`
   * awaits it, so a service does not start (nor report ready) without them (as MongoStore.start).
   */
  start(retry: StartRetryOptions = {}): Promise<void> {
    return retryStart("The Idempotency-Keys' start", () => this.keys.ready, {
      onRetry: (message) => process.stderr.write(`${message}\n`),
      ...retry,
    });
  }

  claim(orgId: number, key: string, fingerprint: string, commandId: string, now: Date): Promise<ClaimOutcome> {
    return this.settle({ orgId, key, fingerprint, commandId, now }, null);
  }

  async peek(orgId: number, key: string, fingerprint: string, commandId: string, now: Date): Promise<ClaimOutcome> {
    await this.keys.ready;
    return (await this.keys.decide({ orgId, key, fingerprint, commandId, now })).decision.outcome;
  }

  async keep(request: KeyRequest, reply: StoredReply): Promise<void> {
    await this.settle(request, reply);
  }

  async complete(orgId: number, key: string, reply: StoredReply): Promise<void> {
    await this.keys.ready;
    await this.keys.model.updateOne({ orgId, key, reply: null }, { $set: { reply: JSON.stringify(reply) } });
  }

  async release(orgId: number, key: string): Promise<void> {
    await this.keys.ready;
    await this.keys.model.deleteOne({ orgId, key, reply: null });
  }

  async prune(now: Date, limit: number): Promise<number> {
    await this.keys.ready;
    const expired = await this.keys.model
      .find({ expiresAt: { $lte: now } }, { _id: 1 })
      .sort({ expiresAt: 1 })
      .limit(limit)
      .lean();
    if (expired.length === 0) return 0;
    const { deletedCount } = await this.keys.model.deleteMany({ _id: { $in: expired.map((doc) => doc._id) } });
    return deletedCount;
  }

  async close(): Promise<void> {
    if (this.ownsConnection) await this.connection.close();
  }

  /** Decides and writes (completed with `reply` when given) until a write holds, or a race was lost too often. */
  private async settle(request: KeyRequest, reply: StoredReply | null): Promise<ClaimOutcome> {
    await this.keys.ready;
    for (let attempt = 0; attempt < maxClaimAttempts; attempt += 1) {
      const decided = await this.keys.decide(request);
      if (await this.keys.write(request, decided, reply)) return decided.decision.outcome;
    }
    throw new AppError('unavailable', 'The Idempotency-Key could not be claimed: too many requests with it at once');
  }
}
