import type { CommandHandler } from '@formcast/bus';
import { createEnvelope, type Envelope } from '@formcast/contracts';
import { AppError } from '@formcast/platform';
import { gate } from '@formcast/testing';
import { idempotent, mismatchMessage, stillRunningMessage } from '../src/idempotent';
import { withIdempotencyKeys } from '../src/idempotent-commands';
import { runningWindowMs } from '../src/idempotency-store';
import { SqliteIdempotencyStore } from '../src/sqlite-idempotency-store';

const request = (payload: unknown, key = 'key-1', fingerprint = 'fp-1', orgId: number | null = 1): Envelope =>
  createEnvelope('test.thing.create', payload, { orgId, idempotency: { key, fingerprint } });

/** A handler that creates a numbered thing per run, remembering the command ids it ran under. */
function creating() {
  const ranUnder: string[] = [];
  const handler: CommandHandler = async (command) => {
    ranUnder.push(command.id);
    return { id: ranUnder.length, payload: command.payload };
  };
  return { handler, ranUnder };
}

describe('idempotent', () => {
  let store: SqliteIdempotencyStore;
  let now: Date;
  const clock = () => now;

  beforeEach(() => {
    store = new SqliteIdempotencyStore(':memory:');
    now = new Date('2030-01-01T00:00:00.000Z');
  });
  afterEach(() => store.close());

  it('runs the first request with a key and answers its repeat from the store without running', async () => {
    const { handler, ranUnder } = creating();
    const wrapped = idempotent(store, handler, { clock });

    const first = await wrapped(request({ name: 'a' }));
    const repeat = await wrapped(request({ name: 'a' }));

    expect(first).toEqual({ id: 1, payload: { name: 'a' } });
    expect(repeat).toEqual(first);
    expect(ranUnder).toHaveLength(1);
  });

  it('runs every request without a key, or without an organization', async () => {
    const { handler, ranUnder } = creating();
    const wrapped = idempotent(store, handler, { clock });
    await wrapped(createEnvelope('test.thing.create', {}, { orgId: 1 }));
    await wrapped(createEnvelope('test.thing.create', {}, { orgId: 1 }));
    await wrapped(request({}, 'k', 'fp', null));
    await wrapped(request({}, 'k', 'fp', null));
    expect(ranUnder).toHaveLength(4);
  });

  it('refuses another request with the same key with 422 (unprocessable), running nothing', async () => {
    const { handler, ranUnder } = creating();
    const wrapped = idempotent(store, handler, { clock });
    await wrapped(request({ name: 'a' }, 'k', 'fp-a'));
    await expect(wrapped(request({ name: 'b' }, 'k', 'fp-b'))).rejects.toMatchObject({ code: 'unprocessable', message: mismatchMessage });
    expect(ranUnder).toHaveLength(1);
  });

  it('keeps a 4xx refusal and answers it again', async () => {
    let runs = 0;
    const wrapped = idempotent(
      store,
      async () => {
        runs += 1;
        throw new AppError('not_found', 'Device 9 does not exist', { device: 9 });
      },
      { clock },
    );
    await expect(wrapped(request({}))).rejects.toMatchObject({ code: 'not_found', message: 'Device 9 does not exist' });
    const again = await wrapped(request({})).catch((error: unknown) => error);
    expect(again).toBeInstanceOf(AppError);
    expect((again as AppError).toBody()).toEqual({ code: 'not_found', message: 'Device 9 does not exist', details: { device: 9 } });
    expect(runs).toBe(1);
  });

  it.each([
    ['unavailable', new AppError('unavailable', 'The directory is not reachable')],
    ['a bug', new TypeError('x is undefined')],
  ])('frees the key after %s, so a retry runs', async (_what, failure) => {
    let runs = 0;
    const wrapped = idempotent(
      store,
      async () => {
        runs += 1;
        if (runs === 1) throw failure;
        return 'created';
      },
      { clock },
    );
    await expect(wrapped(request({}))).rejects.toBe(failure);
    await expect(wrapped(request({}))).resolves.toBe('created');
    expect(runs).toBe(2);
  });

  it('answers 409 (conflict) to a request arriving while the first with its key runs', async () => {
    const release = gate();
    const { handler, ranUnder } = creating();
    const wrapped = idempotent(
      store,
      async (command) => {
        await release.opened;
        return handler(command);
      },
      { clock },
    );
    const first = wrapped(request({}));
    await expect(wrapped(request({}))).rejects.toMatchObject({ code: 'conflict', message: stillRunningMessage });
    release.open();
    await expect(first).resolves.toEqual({ id: 1, payload: {} });
    expect(ranUnder).toHaveLength(1);
  });

  it('runs a claim its process abandoned again under the first command id', async () => {
    const { handler, ranUnder } = creating();
    const firstAttempt = request({});
    // The first attempt's process died after claiming: only the claim is left.
    await store.claim(1, 'key-1', 'fp-1', firstAttempt.id, now);
    const wrapped = idempotent(store, handler, { clock });

    await expect(wrapped(request({}))).rejects.toMatchObject({ code: 'conflict' });
    now = new Date(now.getTime() + runningWindowMs);
    await expect(wrapped(request({}))).resolves.toEqual({ id: 1, payload: {} });
    expect(ranUnder).toEqual([firstAttempt.id]);
  });
});

describe('withIdempotencyKeys', () => {
  it('wraps the listed commands of a table and leaves the others', async () => {
    const store = new SqliteIdempotencyStore(':memory:');
    try {
      let creates = 0;
      let updates = 0;
      const table = withIdempotencyKeys<{ step: number }>(
        {
          'thing.create': (deps) => async () => (creates += deps.step),
          'thing.update': (deps) => async () => (updates += deps.step),
        },
        ['thing.create', 'thing.absent'],
        store,
      );
      const create = table['thing.create']!({ step: 1 });
      const update = table['thing.update']!({ step: 1 });
      const command = (type: string) => createEnvelope(type, {}, { orgId: 1, idempotency: { key: type, fingerprint: 'fp' } });
      const createCommand = command('thing.create');
      const updateCommand = command('thing.update');
      await create(createCommand);
      await create(createCommand);
      await update(updateCommand);
      await update(updateCommand);
      expect({ creates, updates }).toEqual({ creates: 1, updates: 2 });
      expect(Object.keys(table)).toEqual(['thing.create', 'thing.update']);
    } finally {
      await store.close();
    }
  });

  it('leaves the table as it is without a store', () => {
    const table = { 'thing.create': () => async () => 1 };
    expect(withIdempotencyKeys(table, ['thing.create'], undefined)).toBe(table);
  });
});
