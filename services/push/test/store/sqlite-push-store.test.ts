import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pushEvents } from '@formcast/contracts';
import { uniqueName } from '@formcast/testing';
import { oneshotEvent } from '../../src/domain/oneshot-events';
import { newOneshot } from '../../src/domain/oneshot-lifecycle';
import { submissionReceivedEvent } from '../../src/domain/submission-events';
import { openSqlite, type SqliteDatabase } from '@formcast/storage';
import { SqlitePushStore, openPushStore, pushMigrations, type PushStore } from '../../src/store';
import { describePushStoreContract } from './push-store.contract';
import { describeSubmissionImageStoreContract } from './submission-image-store.contract';
import { describeSubmissionStoreContract } from './submission-store.contract';

const dataDir = mkdtempSync(join(tmpdir(), 'push-store-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 }));

const newDatabaseFile = () => join(dataDir, uniqueName('push'), 'push.sqlite');

/** A oneshot row written straight into a file at an earlier schema: `run(id, orgId, deviceId, state)`. */
const oneshotRowInsert = (db: SqliteDatabase) =>
  db.prepare(
    `INSERT INTO oneshots (id, org_id, device_id, device_identifier, form_id, template_namespace, namespace, name, description,
       payload, state, created_at, updated_at)
     VALUES (?, ?, ?, 'Android_10', 7, 'http://forms.example.com/t', 'http://forms.example.com/t?u', 'Inspection for Acme', '',
       '{}', ?, '2030-01-01T08:00:00.000Z', '2030-01-01T09:00:00.000Z')`,
  );

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

describeSubmissionStoreContract('SqlitePushStore submissions in memory', async () => new SqlitePushStore(':memory:'));

const imageFiles = new WeakMap<PushStore, string>();
describeSubmissionImageStoreContract(
  'SqlitePushStore submission images on a file',
  async () => {
    const file = newDatabaseFile();
    const store = new SqlitePushStore(file);
    imageFiles.set(store, file);
    return store;
  },
  { reopen: async (store) => new SqlitePushStore(imageFiles.get(store)!) },
);
describeSubmissionStoreContract(
  'SqlitePushStore submissions on a file',
  async () => {
    const file = newDatabaseFile();
    const store = new SqlitePushStore(file);
    files.set(store, file);
    return store;
  },
  { reopen: async (store) => new SqlitePushStore(files.get(store)!) },
);

describe('SqlitePushStore', () => {
  it('keeps the submissions of a file from before submissions had ids, numbered in the order of their oneshots', async () => {
    const file = newDatabaseFile();
    const before = openSqlite(file, pushMigrations.filter((migration) => migration.version <= 3));
    const insertOneshot = oneshotRowInsert(before);
    const insertSubmission = before.prepare('INSERT INTO submissions (oneshot_id, org_id, device_id, answers, submitted_at) VALUES (?, 1, 10, ?, ?)');
    insertOneshot.run(4, 1, 10, 'completed');
    insertOneshot.run(2, 1, 10, 'completed');
    insertOneshot.run(3, 1, 10, 'outstanding');
    insertSubmission.run(4, '{"site":"later"}', '2030-01-01T09:30:00.000Z');
    insertSubmission.run(2, '{"site":"first"}', '2030-01-01T09:00:00.000Z');
    before.close();

    const store = new SqlitePushStore(file);
    try {
      const kept = {
        orgId: 1,
        deviceId: 10,
        deviceIdentifier: 'Android_10',
        deviceOwner: '',
        formId: 7,
        formNamespace: 'http://forms.example.com/t',
        formName: 'Inspection for Acme',
        formVersion: '',
        clientSubmissionId: null,
      };
      const first = { ...kept, id: 1, oneshotId: 2, answers: { site: 'first' }, submittedAt: '2030-01-01T09:00:00.000Z', receivedAt: '2030-01-01T09:00:00.000Z' };
      const later = { ...kept, id: 2, oneshotId: 4, answers: { site: 'later' }, submittedAt: '2030-01-01T09:30:00.000Z', receivedAt: '2030-01-01T09:30:00.000Z' };
      expect(await store.findSubmission(1, { oneshotId: 2 })).toEqual(first);
      expect(await store.listSubmissions(1, { formId: 7, offset: 0, limit: 10 })).toEqual({ total: 2, submissions: [first, later] });
      // New ones come after them; a oneshot already completed stays so.
      const next = await store.submit(
        { orgId: 1, deviceId: 10, oneshotId: null, clientSubmissionId: null },
        () => ({ submission: { ...kept, oneshotId: null, answers: {}, submittedAt: first.submittedAt, receivedAt: first.receivedAt }, completed: null }),
        { completed: oneshotEvent(pushEvents.oneshotCompleted, null, 'req'), received: submissionReceivedEvent('req') },
        randomUUID(),
      );
      expect(next.id).toBe(3);
    } finally {
      await store.close();
    }
  });

  it('streams an organization of more than one default page (500)', async () => {
    const store = new SqlitePushStore(newDatabaseFile());
    try {
      const event = oneshotEvent(pushEvents.oneshotCreated, null, 'req-bulk');
      const made: number[] = [];
      for (let i = 0; i < 1001; i += 1) {
        const oneshot = await store.create(
          newOneshot(
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
              formVersion: '1.00',
              scheduledAt: null,
              location: null,
              address: null,
              geofenceRadius: null,
            },
            new Date().toISOString(),
          ),
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

  it("keeps each device's outstanding count in a row, from the oneshots of a file written before it and through every change", async () => {
    const file = newDatabaseFile();
    const before = openSqlite(file, pushMigrations.filter((migration) => migration.version <= 8));
    const insertOneshot = oneshotRowInsert(before);
    for (const [n, [orgId, deviceId, state]] of ([
      [1, 10, 'outstanding'],
      [1, 10, 'outstanding'],
      [1, 10, 'completed'],
      [1, 10, 'outstanding'],
      [1, 11, 'outstanding'],
      [2, 10, 'outstanding'],
      [2, 10, 'revoked'],
    ] as const).entries()) {
      // Ids 1000 and up: far from those the store's counter hands out next.
      insertOneshot.run(1000 + n, orgId, deviceId, state);
    }
    before.close();

    const store = new SqlitePushStore(file);
    const raw = openSqlite(file, pushMigrations);
    const counted = (orgId: number, deviceId: number) =>
      (raw.prepare(`SELECT count(*) AS n FROM oneshots WHERE org_id = ? AND device_id = ? AND state = 'outstanding'`).get(orgId, deviceId) as { n: number }).n;
    const expectCounts = async (expected: Array<[orgId: number, deviceId: number, total: number]>) => {
      for (const [orgId, deviceId, total] of expected) {
        expect(counted(orgId, deviceId)).toBe(total);
        expect(await store.countOutstanding(orgId, deviceId)).toBe(total);
      }
    };
    const at = new Date().toISOString();
    try {
      await expectCounts([[1, 10, 3], [1, 11, 1], [2, 10, 1], [1, 99, 0]]);

      const created = oneshotEvent(pushEvents.oneshotCreated, null, 'req');
      const make = () =>
        store.create(
          newOneshot(
            { orgId: 1, deviceId: 10, deviceIdentifier: 'Android_10', formId: 7, templateNamespace: 'http://forms.example.com/t',
              namespace: 'http://forms.example.com/t?n', name: 'T', description: '', payload: {}, formVersion: '1.00',
              scheduledAt: null, location: null, address: null, geofenceRadius: null },
            at,
          ),
          created,
          randomUUID(),
        );
      const first = await make();
      await make();
      await expectCounts([[1, 10, 5]]);

      // Changed but still outstanding; then revoked; then all of another device revoked at once.
      const updated = oneshotEvent(pushEvents.oneshotUpdated, null, 'req');
      const revokedEvent = oneshotEvent(pushEvents.oneshotRevoked, null, 'req');
      await store.change(1, first.id, (o) => ({ ...o!, name: 'Renamed', updatedAt: at }), updated, randomUUID());
      await expectCounts([[1, 10, 5]]);
      await store.change(1, first.id, (o) => ({ ...o!, state: 'revoked', updatedAt: at }), revokedEvent, randomUUID());
      await expectCounts([[1, 10, 4]]);
      await store.changeOutstanding(1, 11, (all) => all.map((o) => ({ ...o, state: 'revoked' as const, updatedAt: at })), revokedEvent, randomUUID());
      await expectCounts([[1, 10, 4], [1, 11, 0], [2, 10, 1]]);

      // Removed rows count down; a oneshot never moves to another device.
      raw.prepare(`DELETE FROM oneshots WHERE org_id = 2`).run();
      await expectCounts([[2, 10, 0]]);
      expect(() => raw.prepare('UPDATE oneshots SET device_id = 11 WHERE id = ?').run(first.id)).toThrow(/never moves/);
      await expectCounts([[1, 10, 4], [1, 11, 0]]);
    } finally {
      raw.close();
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
