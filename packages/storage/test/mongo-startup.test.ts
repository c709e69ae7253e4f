import mongoose, { type Connection, type Model } from 'mongoose';
import { mongo } from 'mongoose';
import { isMongoDuplicateKey, MongoStartRefused, MongoStore, mongoServerRefusal, retryStart } from '../src';

describe('mongoServerRefusal (the `hello` answer a store starts on)', () => {
  // The shapes MongoDB 7 answers `hello` with (trimmed to the fields read).
  const replicaSetMember = { isWritablePrimary: true, setName: 'rs0', hosts: ['db:27017'], maxWireVersion: 21 };
  const standalone = { isWritablePrimary: true, maxWireVersion: 21 };
  const mongos = { isWritablePrimary: true, msg: 'isdbgrid', maxWireVersion: 21 };

  it('accepts a replica set member and a mongos', () => {
    expect(mongoServerRefusal(replicaSetMember)).toBeNull();
    expect(mongoServerRefusal(mongos)).toBeNull();
  });

  it('refuses a standalone server, saying transactions need a replica set and how to make one', () => {
    const refusal = mongoServerRefusal(standalone);
    expect(refusal).toMatch(/standalone/);
    expect(refusal).toMatch(/replica set/);
    expect(refusal).toMatch(/--replSet/);
  });

  it('refuses a server older than MongoDB 5.0', () => {
    expect(mongoServerRefusal({ ...replicaSetMember, maxWireVersion: 9 })).toMatch(/MongoDB 5\.0 or newer/);
  });
});

describe('retryStart', () => {
  it('runs the step again after a failure, and succeeds when it does', async () => {
    let calls = 0;
    const retries: string[] = [];
    await retryStart(
      'The things database start',
      async () => {
        calls += 1;
        if (calls < 3) throw new Error(`election ${calls}`);
      },
      { attempts: 5, firstDelayMs: 1, onRetry: (message) => retries.push(message) },
    );
    expect(calls).toBe(3);
    expect(retries).toEqual([
      'The things database start failed (attempt 1 of 5), trying again in 1 ms: election 1',
      'The things database start failed (attempt 2 of 5), trying again in 2 ms: election 2',
    ]);
  });

  it('stops after the last attempt with a message saying what failed, how often and why', async () => {
    let calls = 0;
    const failing = retryStart(
      'The things database start',
      async () => {
        calls += 1;
        throw new Error('An existing index has the same name as the requested index');
      },
      { attempts: 3, firstDelayMs: 1 },
    );
    await expect(failing).rejects.toThrow(
      'The things database start failed 3 time(s); the last failure: An existing index has the same name as the requested index',
    );
    expect(calls).toBe(3);
  });

  it('does not retry a refusal', async () => {
    let calls = 0;
    const refused = retryStart(
      'start',
      async () => {
        calls += 1;
        throw new MongoStartRefused('not a replica set');
      },
      { attempts: 5, firstDelayMs: 1 },
    );
    await expect(refused).rejects.toBeInstanceOf(MongoStartRefused);
    expect(calls).toBe(1);
  });
});

interface ThingDoc {
  _id: number;
}

class ThingStore extends MongoStore<{ Thing: Model<ThingDoc> }> {
  migrations = 0;
  constructor(connection: Connection) {
    super(connection, (c) => ({ Thing: c.model<ThingDoc>('Thing', new c.base.Schema<ThingDoc>({ _id: Number }), 'things') }), 'things', {
      attempts: 2,
      firstDelayMs: 1,
      onRetry: () => undefined,
    });
  }
  protected override async migrate(): Promise<void> {
    this.migrations += 1;
  }
  run(): Promise<void> {
    return this.transaction(async () => undefined);
  }
}

describe('MongoStore.start without a usable server', () => {
  // A real mongoose connection that was never opened: `db` is undefined, as before a connection is usable.
  let connection: Connection;
  beforeEach(() => {
    connection = mongoose.createConnection();
  });
  afterEach(() => connection.close());

  it('fails loudly after its retries, and nothing runs before it succeeded: no operation, no ping, no migration', async () => {
    const store = new ThingStore(connection);
    await expect(store.start()).rejects.toThrow(/The things database's start failed 2 time\(s\); the last failure: The things database is not connected/);
    await expect(store.ping()).rejects.toThrow(/The things database's start failed/);
    await expect(store.run()).rejects.toThrow(/The things database's start failed/);
    expect(store.migrations).toBe(0);
  });

  it('keeps no failed start: the next call starts again', async () => {
    const store = new ThingStore(connection);
    const first = store.start();
    await expect(first).rejects.toThrow();
    const second = store.start();
    expect(second).not.toBe(first);
    await expect(second).rejects.toThrow();
  });
});

describe('isMongoDuplicateKey', () => {
  it("knows the driver's E11000 (a unique index refused the write), and nothing else", () => {
    const duplicate = new mongo.MongoServerError({
      code: 11000,
      errmsg: 'E11000 duplicate key error collection: resources.resources index: orgId_1_commandId_1 dup key: { orgId: 1, commandId: "c" }',
      keyPattern: { orgId: 1, commandId: 1 },
    });
    expect(isMongoDuplicateKey(duplicate)).toBe(true);
    expect(isMongoDuplicateKey(new mongo.MongoServerError({ code: 112, errmsg: 'WriteConflict' }))).toBe(false);
    expect(isMongoDuplicateKey(new Error('E11000 in a message only'))).toBe(false);
    expect(isMongoDuplicateKey(null)).toBe(false);
  });
});
