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

  it('takes part in a transaction: an aborted one gives its id back', async () => {
    const name = uniqueName('transactional');
    await nextMongoId(connection, name);
    await expect(
      connection.transaction(async (session) => {
        expect(await nextMongoId(connection, name, session)).toBe(2);
        throw new Error('change refused');
      }),
    ).rejects.toThrow('change refused');
    expect(await nextMongoId(connection, name)).toBe(2);
  });
});
