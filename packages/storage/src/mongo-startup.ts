/*
 * How a MongoDB store starts (see MongoStore.start): the server is checked first, then the
 * collections, indexes and migrations are brought into place, retried a few times, and a
 * start that still fails stops with a message. No mongoose here: these are plain functions,
 * tested without a server.
 */

/** The fields of MongoDB's `hello` answer that decide whether the stores can run on a server. */
export interface HelloAnswer {
  /** The replica set's name: present on a replica set member only. */
  setName?: unknown;
  /** 'isdbgrid' on a mongos (a sharded cluster, which runs transactions too). */
  msg?: unknown;
  /** The newest wire protocol the server speaks: 13 is MongoDB 5.0. */
  maxWireVersion?: unknown;
}

/** MongoDB 5.0's wire version: `$setWindowFields` (the delivery store's due deliveries) needs 5.0. */
export const minimumWireVersion = 13;

/**
 * Why the stores cannot run on the server that answered `hello` this way, or null when they
 * can. The stores write several documents together in multi-document transactions, which
 * MongoDB refuses on a standalone server ("Transaction numbers are only allowed on a replica
 * set member or mongos"); without this check such a server fails every such write at run time,
 * long after the process reported itself ready.
 */
export function mongoServerRefusal(hello: HelloAnswer): string | null {
  const sharded = hello.msg === 'isdbgrid';
  if (!sharded && (typeof hello.setName !== 'string' || hello.setName === '')) {
    return (
      'the server is a standalone mongod, not a replica set member: the stores write in multi-document ' +
      'transactions, which MongoDB runs only on a replica set or a sharded cluster (a single-node replica ' +
      'set is enough: start mongod with --replSet <name> and run rs.initiate() once)'
    );
  }
  if (typeof hello.maxWireVersion === 'number' && hello.maxWireVersion < minimumWireVersion) {
    return `the server speaks wire version ${hello.maxWireVersion}: MongoDB 5.0 or newer (wire version ${minimumWireVersion}) is needed`;
  }
  return null;
}

/** A start that must not be retried: the server itself is unfit (see mongoServerRefusal). */
export class MongoStartRefused extends Error {
  override readonly name = 'MongoStartRefused';
}

export interface StartRetryOptions {
  /** How many times the step runs before the start fails (5). */
  attempts?: number;
  /** The wait after the first failure, doubled after each further one (500 ms: 0.5 + 1 + 2 + 4 s in all). */
  firstDelayMs?: number;
  /** Told of each failure that is retried. */
  onRetry?: (message: string) => void;
}

/**
 * Runs `step` until it succeeds, `attempts` times at most, waiting longer after each failure
 * (an election during a rollout lasts seconds). A MongoStartRefused is not retried. The last
 * failure is thrown as an Error whose message says what failed, how often, and why; the
 * original error is its `cause`.
 */
export async function retryStart(what: string, step: () => Promise<void>, options: StartRetryOptions = {}): Promise<void> {
  const attempts = Math.max(1, options.attempts ?? 5);
  let delayMs = options.firstDelayMs ?? 500;
  for (let attempt = 1; ; attempt += 1) {
    try {
      await step();
      return;
    } catch (error) {
      if (error instanceof MongoStartRefused) throw error;
      const reason = error instanceof Error ? error.message : String(error);
      if (attempt >= attempts) {
        throw new Error(`${what} failed ${attempts} time(s); the last failure: ${reason}`, { cause: error });
      }
      options.onRetry?.(`${what} failed (attempt ${attempt} of ${attempts}), trying again in ${delayMs} ms: ${reason}`);
      await new Promise((resolve) => setTimeout(resolve, delayMs));
      delayMs *= 2;
    }
  }
}

/** MongoDB's codes for an index, or a collection, that is not there. */
const indexNotFound = 27;
const namespaceNotFound = 26;

/** The driver's `dropIndex` on one collection (the part of `Db` this needs). */
export interface IndexDropper {
  collection(name: string): { dropIndex(name: string): Promise<unknown> };
}

/** Drops the index `name` of `collection`; one (or a collection) already gone is fine. */
export async function dropIndexIfPresent(db: IndexDropper, collection: string, name: string): Promise<void> {
  try {
    await db.collection(collection).dropIndex(name);
  } catch (error) {
    const code = (error as { code?: unknown } | null)?.code;
    if (code !== indexNotFound && code !== namespaceNotFound) throw error;
  }
}

/** MongoDB's duplicate key error: a unique index refused a write. */
export function isMongoDuplicateKey(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === 11000;
}
