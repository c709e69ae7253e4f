import type { ClientSession, Connection, Model } from 'mongoose';
import { decideClaim, type ClaimDecision, type KeyRecord } from './claim-decision';
import { idempotencyKeyModel, type IdempotencyKeyDoc } from './idempotency-key.schema';
import { keyLifetimeMs, type KeyRequest, type StoredReply } from './idempotency-store';

/** A claim's decision with the document it was taken on (the writes are conditional on it). */
export interface MongoKeyDecision {
  decision: ClaimDecision;
  found: IdempotencyKeyDoc | null;
}

export function isDuplicateKey(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === 11000;
}

/**
 * The `idempotency_keys` collection of a service's database, read and written on its own or
 * inside a transaction the caller holds (`session`): the key store's claims, or a service's
 * write that records its key in the same transaction as what it creates.
 */
export class MongoKeyCollection {
  readonly model: Model<IdempotencyKeyDoc>;
  private building: Promise<void> | undefined;

  constructor(connection: Connection) {
    this.model = idempotencyKeyModel(connection);
  }

  /**
   * The collection and its indexes (the unique {orgId, key}, the TTL), created before the
   * first operation uses them; awaited by `MongoIdempotencyStore.start` at open. Built here,
   * not by mongoose's background `init()`, whose failure is memoized and dropped (one error
   * during an election left the keys failing until a restart): a failed build is not kept,
   * the next await builds again.
   */
  get ready(): Promise<void> {
    if (!this.building) {
      const building = (async () => {
        await this.model.createCollection();
        await this.model.createIndexes();
      })();
      this.building = building;
      building.catch(() => {
        if (this.building === building) this.building = undefined;
      });
    }
    return this.building;
  }

  /** What a claim of the key decides, on the document as it is read now (see decideClaim). */
  async decide({ orgId, key, fingerprint, commandId, now }: KeyRequest, session?: ClientSession): Promise<MongoKeyDecision> {
    const found = await this.model.findOne({ orgId, key }).session(session ?? null).lean<IdempotencyKeyDoc>();
    return { decision: decideClaim(found ? toRecord(found) : undefined, { fingerprint, commandId }, now), found };
  }

  /**
   * Writes what the decision asks for, completed with `reply` when given, on condition the
   * key is still as it was read: false when another write got there first (read and decide
   * again). An insert meets a racing one at the unique index {orgId, key}: outside a session
   * that is a false; inside one the error is thrown, since it ends the transaction.
   */
  async write(request: KeyRequest, { decision, found }: MongoKeyDecision, reply: StoredReply | null = null, session?: ClientSession): Promise<boolean> {
    const { orgId, key } = request;
    const json = reply === null ? null : JSON.stringify(reply);
    if (decision.write === 'none') return true;
    if (decision.write === 'reclaim') {
      const { matchedCount } = await this.model.updateOne(
        { orgId, key, claimedAt: found!.claimedAt, reply: null },
        { $set: { claimedAt: new Date(decision.claimedAt), reply: json } },
        { session },
      );
      return matchedCount === 1;
    }
    const { record } = decision;
    const fresh: IdempotencyKeyDoc = {
      orgId,
      key,
      fingerprint: record.fingerprint,
      commandId: record.commandId,
      createdAt: new Date(record.createdAt),
      claimedAt: new Date(record.claimedAt),
      expiresAt: new Date(record.createdAt + keyLifetimeMs),
      reply: json,
    };
    if (found) {
      // An expired key not yet deleted: replaced, if nobody replaced it meanwhile.
      const { matchedCount } = await this.model.replaceOne({ orgId, key, createdAt: found.createdAt }, fresh, { session });
      return matchedCount === 1;
    }
    try {
      await this.model.create([fresh], { session });
      return true;
    } catch (error) {
      if (session || !isDuplicateKey(error)) throw error;
      return false;
    }
  }
}

function toRecord(doc: IdempotencyKeyDoc): KeyRecord {
  return {
    fingerprint: doc.fingerprint,
    commandId: doc.commandId,
    createdAt: doc.createdAt.getTime(),
    claimedAt: doc.claimedAt.getTime(),
    reply: doc.reply === null ? null : (JSON.parse(doc.reply) as StoredReply),
  };
}
