import { randomUUID } from 'node:crypto';
import pino from 'pino';
import { newSigningSecrets } from '../../src/domain/signing-secrets';
import { SecretCipher } from '../../src/secrets';
import { SqliteDeliveryStore } from '../../src/store';
import { DeletedFormsSweep } from '../../src/worker/deleted-forms-sweep';

const logger = pino({ level: 'silent' });
const key = (orgId: number, formId: number) => `${orgId}/${formId}`;

describe('DeletedFormsSweep', () => {
  let store: SqliteDeliveryStore;

  beforeEach(() => {
    store = new SqliteDeliveryStore(':memory:', new SecretCipher(Buffer.alloc(32, 5)));
  });
  afterEach(() => store.close());

  const createDestination = (orgId: number, formId: number) =>
    store.destinations.createDestination(
      { orgId, formId, description: null, format: 'json_format', formatParameters: {}, transport: { type: 'http_transport', parameters: { uri: 'https://example.com/' } }, secrets: newSigningSecrets() },
      randomUUID(),
    );
  const remaining = async (orgId: number, formId: number) => (await store.destinations.listDestinations(orgId, formId)).length;

  it('removes the destinations of every form the directory no longer has, across pages, and keeps the others', async () => {
    for (const [orgId, formId] of [[1, 1], [1, 1], [1, 2], [1, 3], [2, 1], [2, 4], [2, 4]] as const) await createDestination(orgId, formId);
    const existing = new Set([key(1, 2), key(2, 1)]);
    const asked: string[] = [];
    const sweep = new DeletedFormsSweep(
      store,
      {
        formExists: async (orgId, formId) => {
          asked.push(key(orgId, formId));
          return existing.has(key(orgId, formId));
        },
      },
      { intervalMs: 60_000, pageSize: 2, logger },
    );

    expect(await sweep.sweepOnce()).toBe(5);
    expect(asked).toEqual(['1/1', '1/2', '1/3', '2/1', '2/4']);
    expect([await remaining(1, 1), await remaining(1, 2), await remaining(1, 3), await remaining(2, 1), await remaining(2, 4)]).toEqual([0, 1, 0, 1, 0]);
    asked.length = 0;
    expect(await sweep.sweepOnce()).toBe(0);
    expect(asked).toEqual(['1/2', '2/1']);
  });

  it('stops at a failure to ask, removing nothing it could not check', async () => {
    for (const formId of [1, 2, 3]) await createDestination(1, formId);
    const sweep = new DeletedFormsSweep(
      store,
      {
        formExists: async (_orgId, formId) => {
          if (formId === 2) throw new Error('the directory did not answer in time');
          return false;
        },
      },
      { intervalMs: 60_000, logger },
    );
    await expect(sweep.sweepOnce()).rejects.toThrow('did not answer');
    expect([await remaining(1, 1), await remaining(1, 2), await remaining(1, 3)]).toEqual([0, 1, 1]);
  });
});
