import { describeWithMongo, uniqueName } from '@formcast/testing';
import type { Connection } from 'mongoose';
import { connectMongo, nextMongoId } from '../src';

describeWithMongo('MongoDB helpers', (mongo) => {
  let connection: Connection;

  beforeAll(async () => {
    connection = await connectMongo(mongo.url(), { dbName: uniqueName('storage_test') });
  });

  afterAll(async () => {
    await connection.dropDatabase();
    await connection.close();
  });

  it('connects and waits until the connection is open', () => {
    expect(connection.readyState).toBe(1);
  });

  it('counts ids from 1, separately for each name', async () => {
    const name = uniqueName('things');
    expect(await nextMongoId(connection, name)).toBe(1);
    expect(await nextMongoId(connection, name)).toBe(2);
    expect(await nextMongoId(connection, uniqueName('others'))).toBe(1);
  });

  it('gives each of many simultaneous callers its own id', async () => {
    const name = uniqueName('parallel');
    const ids = await Promise.all(Array.from({ length: 20 }, () => nextMongoId(connection, name)));
    expect([...ids].sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
  });

  it('gives the first of `count` consecutive ids, and the next call the one after them', async () => {
    const name = uniqueName('block');
    expect(await nextMongoId(connection, name, 3)).toBe(1);
    expect(await nextMongoId(connection, name)).toBe(4);
  });

  it('never joins a transaction: an id taken by an aborted one stays taken (a gap), and no transaction holds the counter', async () => {
    const name = uniqueName('outside');
    await nextMongoId(connection, name);
    await expect(
      connection.transaction(async () => {
        expect(await nextMongoId(connection, name)).toBe(2);
        throw new Error('change refused');
      }),
    ).rejects.toThrow('change refused');
    expect(await nextMongoId(connection, name)).toBe(3);
  });

  it('lets two open transactions each take an id without a write conflict', async () => {
    const name = uniqueName('concurrent');
    const inBoth = await Promise.all([
      connection.transaction(async (session) => {
        const id = await nextMongoId(connection, name);
        await connection.collection(name).insertOne({ _id: id as never }, { session });
        return id;
      }),
      connection.transaction(async (session) => {
        const id = await nextMongoId(connection, name);
        await connection.collection(name).insertOne({ _id: id as never }, { session });
        return id;
      }),
    ]);
    expect(new Set(inBoth).size).toBe(2);
  });
});
