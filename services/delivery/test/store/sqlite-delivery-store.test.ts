import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { closeSqlite, openSqlite, type SqliteDatabase } from '@formcast/storage';
import { useTempDir } from '@formcast/testing';
import { newSigningSecrets } from '../../src/domain/signing-secrets';
import { SecretCipher } from '../../src/secrets';
import { deliveryMigrations, SqliteDeliveryStore } from '../../src/store';
import { describeDeliveryStoreContract, testKey } from './delivery-store.contract';

const testCipher = new SecretCipher(testKey);

describe('SqliteDeliveryStore', () => {
  let dir: string;
  let file: string;
  let db: SqliteDatabase;
  let files = 0;

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'delivery-contract-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 }));

  function open(cipher: SecretCipher): SqliteDeliveryStore {
    db = openSqlite(file, deliveryMigrations);
    return new SqliteDeliveryStore(db, cipher);
  }

  describeDeliveryStoreContract('contract', {
    make: async (cipher) => {
      file = join(dir, `delivery-${(files += 1)}.sqlite`);
      return open(cipher);
    },
    reopen: async (cipher) => open(cipher),
    rawDestination: async (id) => JSON.stringify(db.prepare('SELECT * FROM destinations WHERE id = ?').get(id)),
    writeInClear: async (id, secrets) => {
      db.prepare('UPDATE destinations SET secret = ?, retired_secrets = ? WHERE id = ?').run(secrets.current, JSON.stringify(secrets.retired), id);
    },
  });
});

describe('SqliteDeliveryStore on a file', () => {
  const tempDir = useTempDir('delivery-store-');

  it('keeps the schedule across a restart, and leases hold between two processes on one file', async () => {
    const file = join(tempDir(), 'delivery.sqlite');
    const first = new SqliteDeliveryStore(file, testCipher);
    const destination = await first.destinations.createDestination(
      {
        orgId: 1,
        formId: 2,
        description: null,
        format: 'json_format',
        formatParameters: {},
        transport: { type: 'http_transport', parameters: { uri: 'https://example.com/' } },
        secrets: newSigningSecrets(),
      },
      randomUUID(),
    );
    await first.queue.createDeliveries(
      [{ orgId: 1, formId: 2, destinationId: destination.id, submissionId: 9, webhookId: 'msg_1', contentType: 'application/json', body: '{}' }],
      1000,
    );
    await first.close();

    const [one, two] = [new SqliteDeliveryStore(file, testCipher), new SqliteDeliveryStore(file, testCipher)];
    try {
      const due = await one.queue.dueDeliveries(2000, 10, 10);
      expect(due).toHaveLength(1);
      const ids = due.map((candidate) => candidate.id);
      const [claimedByOne, claimedByTwo] = [await one.queue.claim(ids, 2000, 60_000), await two.queue.claim(ids, 2000, 60_000)];
      expect(claimedByOne).toHaveLength(1);
      expect(claimedByTwo).toEqual([]);
    } finally {
      await one.close();
      await two.close();
    }
  });
});

describe('SqliteDeliveryStore: two processes on one file, each keeping the active destinations it read', () => {
  const tempDir = useTempDir('delivery-targets-');

  it('reads what the other one changed at once (PRAGMA data_version)', async () => {
    const file = join(tempDir(), 'delivery.sqlite');
    const [one, two] = [new SqliteDeliveryStore(file, testCipher), new SqliteDeliveryStore(file, testCipher)];
    const input = {
      orgId: 1,
      formId: 2,
      description: null,
      format: 'json_format' as const,
      formatParameters: {},
      transport: { type: 'http_transport' as const, parameters: { uri: 'https://example.com/' } },
      secrets: newSigningSecrets(),
    };
    try {
      const active = async () => (await one.destinations.activeDestinations(1, 2)).map((d) => d.id);
      expect(await active()).toEqual([]);
      expect(await active()).toEqual([]);
      const made = await two.destinations.createDestination(input, randomUUID());
      expect(await active()).toEqual([made.id]);
      await two.destinations.updateDestination(1, 2, made.id, { active: false });
      expect(await active()).toEqual([]);
      await two.destinations.updateDestination(1, 2, made.id, { active: true });
      expect(await active()).toEqual([made.id]);
      await two.destinations.deleteDestination(1, 2, made.id);
      expect(await active()).toEqual([]);
    } finally {
      await one.close();
      await two.close();
    }
  });
});

describe('SqliteDeliveryStore over a database of the release before sealed secrets', () => {
  const tempDir = useTempDir('delivery-upgrade-');

  it('seals the secrets it finds in clear at its first start, and signs with the same ones', async () => {
    const file = join(tempDir(), 'delivery.sqlite');
    const clear = 'whsec_' + Buffer.alloc(32, 3).toString('base64');
    const old = openSqlite(file, deliveryMigrations.filter((migration) => migration.version <= 2));
    old
      .prepare(
        `INSERT INTO destinations (id, org_id, form_id, active, format, transport_type, transport_parameters, secret, retired_secrets, command_id, created_at, updated_at)
         VALUES (1, 1, 2, 1, 'json_format', 'http_transport', '{"uri":"https://example.com/"}', ?, '[]', 'c-1', '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z')`,
      )
      .run(clear);
    await closeSqlite(old);

    const store = new SqliteDeliveryStore(file, testCipher);
    try {
      expect(await store.destinations.sealSecrets()).toBe(1);
      expect((await store.destinations.getDestination(1, 2, 1))!.secrets).toEqual({ current: clear, retired: [] });
    } finally {
      await store.close();
    }
    expect(readFileSync(file).includes(clear.slice('whsec_'.length))).toBe(false);
  });
});
