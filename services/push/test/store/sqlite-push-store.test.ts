import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pushEvents } from '@formcast/contracts';
import { uniqueName } from '@formcast/testing';
import { oneshotEvent } from '../../src/domain/oneshot-events';
import { SqlitePushStore, openPushStore, type PushStore } from '../../src/store';
import { describePushStoreContract } from './push-store.contract';

const dataDir = mkdtempSync(join(tmpdir(), 'push-store-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

const newDatabaseFile = () => join(dataDir, uniqueName('push'), 'push.sqlite');

describePushStoreContract('SqlitePushStore in memory', async (options) => new SqlitePushStore(':memory:', options));

const files = new WeakMap<PushStore, string>();
describePushStoreContract(
  'SqlitePushStore on a file',
  async (options) => {
    const file = newDatabaseFile();
    const store = new SqlitePushStore(file, options);
    files.set(store, file);
    return store;
  },
  {
    reopen: async (store) => {
      const file = files.get(store);
      if (!file) throw new Error('not a store of this suite');
      return new SqlitePushStore(file);
    },
  },
);

describe('SqlitePushStore', () => {
  it('streams an organization of more than one default page (500)', async () => {
    const store = new SqlitePushStore(newDatabaseFile());
    try {
      const event = oneshotEvent(pushEvents.oneshotCreated, null, 'req-bulk');
      const made: number[] = [];
      for (let i = 0; i < 1001; i += 1) {
        const oneshot = await store.create(
          {
            orgId: 1,
            deviceId: 100 + (i % 7),
            deviceIdentifier: `Android_${i % 7}`,
            formId: 1,
            templateNamespace: 'http://forms.example.com/t',
            namespace: `http://forms.example.com/t?${i}`,
            name: 'T',
            description: '',
            payload: {},
          },
          event,
          randomUUID(),
        );
        made.push(oneshot.id);
      }
      const seen: number[] = [];
      for await (const oneshot of store.streamOutstandingForOrganization(1)) seen.push(oneshot.id);
      expect(seen).toEqual(made);
    } finally {
      await store.close();
    }
  });

  it('closes once, however often close() is called', async () => {
    const store = new SqlitePushStore(newDatabaseFile());
    await store.close();
    await expect(store.close()).resolves.toBeUndefined();
    await expect(store.ping()).rejects.toThrow();
  });
});

describe('openPushStore without a MongoDB URL', () => {
  it('opens SQLite in the file given, creating it', async () => {
    const file = newDatabaseFile();
    const store = await openPushStore({ mongoUrl: undefined, sqliteFile: file });
    try {
      expect(store).toBeInstanceOf(SqlitePushStore);
      expect(existsSync(file)).toBe(true);
      await expect(store.ping()).resolves.toBeUndefined();
    } finally {
      await store.close();
    }
  });
});
