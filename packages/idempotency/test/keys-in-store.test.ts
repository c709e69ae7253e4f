import { createEnvelope, type Envelope } from '@formcast/contracts';
import { AppError } from '@formcast/platform';
import type { KeyRequest } from '../src/idempotency-store';
import { mismatchMessage, stillRunningMessage } from '../src/idempotent';
import { idempotentInStore, type KeyedAnswer } from '../src/keys-in-store';
import { runningWindowMs } from '../src/idempotency-store';
import { SqliteIdempotencyStore } from '../src/sqlite-idempotency-store';

const request = (payload: unknown, key = 'key-1', fingerprint = 'fp-1', orgId: number | null = 1): Envelope =>
  createEnvelope('test.thing.create', payload, { orgId, idempotency: { key, fingerprint } });

describe('idempotentInStore', () => {
  let keys: SqliteIdempotencyStore;
  let now: Date;
  const clock = () => now;
  /** The keys each run was handed. */
  let runs: Array<KeyRequest | null>;

  /** A run whose "store" records its key with what it creates, as PushStore.createKeyed does (here through keep). */
  const creating = async (command: Envelope, key: KeyRequest | null): Promise<KeyedAnswer> => {
    runs.push(key);
    const value = { id: runs.length, payload: command.payload };
    if (key) await keys.keep(key, { ok: true, value });
    return { value };
  };

  beforeEach(() => {
    keys = new SqliteIdempotencyStore(':memory:');
    now = new Date('2030-01-01T00:00:00.000Z');
    runs = [];
  });
  afterEach(() => keys.close());

  it('runs without a key, or without an organization, handing the run no key', async () => {
    const handler = idempotentInStore(keys, creating, { clock });
    await handler(createEnvelope('test.thing.create', {}, { orgId: 1 }));
    await handler(request({}, 'k', 'fp', null));
    expect(runs).toEqual([null, null]);
  });

  it('hands the run the key, and answers its repeat from the keys without running', async () => {
    const handler = idempotentInStore(keys, creating, { clock });
    const first = await handler(request({ name: 'a' }));
    const repeat = await handler(request({ name: 'a' }));
    expect(first).toEqual({ id: 1, payload: { name: 'a' } });
    expect(repeat).toEqual(first);
    expect(runs).toEqual([expect.objectContaining({ orgId: 1, key: 'key-1', fingerprint: 'fp-1', now })]);
  });

  it('refuses another request with the key with 422 without running', async () => {
    const handler = idempotentInStore(keys, creating, { clock });
    await handler(request({ name: 'a' }, 'k', 'fp-a'));
    await expect(handler(request({ name: 'b' }, 'k', 'fp-b'))).rejects.toMatchObject({ code: 'unprocessable', message: mismatchMessage });
    expect(runs).toHaveLength(1);
  });

  it("answers what the run's own write found under the key (a request that raced it)", async () => {
    const handler = idempotentInStore(keys, async () => ({ found: { kind: 'replay', reply: { ok: true, value: 'the winner' } } }), { clock });
    await expect(handler(request({}))).resolves.toBe('the winner');
    const refusing = idempotentInStore(keys, async () => ({ found: { kind: 'mismatch' } }), { clock });
    await expect(refusing(request({}, 'other'))).rejects.toMatchObject({ code: 'unprocessable' });
  });

  it('keeps a refusal (4xx) thrown before the write and answers it again', async () => {
    let attempts = 0;
    const handler = idempotentInStore(
      keys,
      async () => {
        attempts += 1;
        throw new AppError('invalid', 'form_namespace: no such form', { field: 'form_namespace' });
      },
      { clock },
    );
    await expect(handler(request({}))).rejects.toMatchObject({ code: 'invalid' });
    const again = await handler(request({})).catch((error: unknown) => error);
    expect((again as AppError).toBody()).toEqual({ code: 'invalid', message: 'form_namespace: no such form', details: { field: 'form_namespace' } });
    expect(attempts).toBe(1);
  });

  it('keeps nothing for an error that is not a refusal: the retry runs', async () => {
    let attempts = 0;
    const handler = idempotentInStore(
      keys,
      async (command, key) => {
        attempts += 1;
        if (attempts === 1) throw new AppError('unavailable', 'The directory did not answer');
        return creating(command, key);
      },
      { clock },
    );
    await expect(handler(request({}))).rejects.toMatchObject({ code: 'unavailable' });
    await expect(handler(request({}))).resolves.toEqual({ id: 1, payload: {} });
    expect(attempts).toBe(2);
  });

  it('answers 409 while a claim of the key runs, and takes over an abandoned one under its command id', async () => {
    await keys.claim(1, 'key-1', 'fp-1', 'first-command', now);
    const handler = idempotentInStore(keys, creating, { clock });
    await expect(handler(request({}))).rejects.toMatchObject({ code: 'conflict', message: stillRunningMessage });
    expect(runs).toEqual([]);

    now = new Date(now.getTime() + runningWindowMs);
    await handler(request({}));
    expect(runs).toEqual([expect.objectContaining({ commandId: 'first-command' })]);
  });
});
