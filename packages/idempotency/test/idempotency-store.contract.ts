import { keyLifetimeMs, runningWindowMs, type IdempotencyStore } from '../src/idempotency-store';

const t0 = new Date('2030-01-01T00:00:00.000Z');
const after = (ms: number) => new Date(t0.getTime() + ms);

/** The behaviour every IdempotencyStore adapter must show. `makeStore` gives a new, empty store. */
export function describeIdempotencyStoreContract(name: string, makeStore: () => Promise<IdempotencyStore>): void {
  describe(`${name} (idempotency store contract)`, () => {
    let store: IdempotencyStore;

    beforeEach(async () => {
      store = await makeStore();
    });

    afterEach(async () => {
      await store.close();
    });

    it('gives a new key to its first claim, and the same request still running to a second', async () => {
      await expect(store.claim(1, 'k', 'fp', 'cmd-1', t0)).resolves.toEqual({ kind: 'new' });
      await expect(store.claim(1, 'k', 'fp', 'cmd-2', after(1000))).resolves.toEqual({ kind: 'running' });
    });

    it('replays the completed answer, a value or a refusal', async () => {
      await store.claim(1, 'ok', 'fp', 'cmd-1', t0);
      await store.complete(1, 'ok', { ok: true, value: { id: 7, names: ['a', 'b'], nested: { 'a.b': null, $x: 1 } } });
      await store.claim(1, 'refused', 'fp', 'cmd-2', t0);
      await store.complete(1, 'refused', { ok: false, error: { code: 'not_found', message: 'Device 3 does not exist', details: { field: 'device' } } });

      await expect(store.claim(1, 'ok', 'fp', 'cmd-3', after(1000))).resolves.toEqual({
        kind: 'replay',
        reply: { ok: true, value: { id: 7, names: ['a', 'b'], nested: { 'a.b': null, $x: 1 } } },
      });
      await expect(store.claim(1, 'refused', 'fp', 'cmd-4', after(1000))).resolves.toEqual({
        kind: 'replay',
        reply: { ok: false, error: { code: 'not_found', message: 'Device 3 does not exist', details: { field: 'device' } } },
      });
    });

    it('answers mismatch to another request with the key, running or completed', async () => {
      await store.claim(1, 'k', 'fp-first', 'cmd-1', t0);
      await expect(store.claim(1, 'k', 'fp-other', 'cmd-2', after(10))).resolves.toEqual({ kind: 'mismatch' });
      await store.complete(1, 'k', { ok: true, value: 1 });
      await expect(store.claim(1, 'k', 'fp-other', 'cmd-3', after(20))).resolves.toEqual({ kind: 'mismatch' });
    });

    it('keeps keys apart per organization', async () => {
      await store.claim(1, 'k', 'fp', 'cmd-1', t0);
      await store.complete(1, 'k', { ok: true, value: 'org 1' });
      await expect(store.claim(2, 'k', 'other fp', 'cmd-2', t0)).resolves.toEqual({ kind: 'new' });
      await store.complete(2, 'k', { ok: true, value: 'org 2' });
      await expect(store.claim(1, 'k', 'fp', 'cmd-3', t0)).resolves.toEqual({ kind: 'replay', reply: { ok: true, value: 'org 1' } });
      await expect(store.claim(2, 'k', 'other fp', 'cmd-4', t0)).resolves.toEqual({ kind: 'replay', reply: { ok: true, value: 'org 2' } });
    });

    it('frees a released key for the next claim', async () => {
      await store.claim(1, 'k', 'fp', 'cmd-1', t0);
      await store.release(1, 'k');
      await expect(store.claim(1, 'k', 'another fp', 'cmd-2', after(10))).resolves.toEqual({ kind: 'new' });
    });

    it('never releases or overwrites a completed key', async () => {
      await store.claim(1, 'k', 'fp', 'cmd-1', t0);
      await store.complete(1, 'k', { ok: true, value: 'first' });
      await store.release(1, 'k');
      await store.complete(1, 'k', { ok: true, value: 'second' });
      await expect(store.claim(1, 'k', 'fp', 'cmd-2', after(10))).resolves.toEqual({ kind: 'replay', reply: { ok: true, value: 'first' } });
    });

    it('hands an abandoned claim over, once, with the first command id', async () => {
      await store.claim(1, 'k', 'fp', 'cmd-1', t0);
      await expect(store.claim(1, 'k', 'fp', 'cmd-2', after(runningWindowMs - 1))).resolves.toEqual({ kind: 'running' });
      await expect(store.claim(1, 'k', 'fp', 'cmd-3', after(runningWindowMs))).resolves.toEqual({ kind: 'stale', commandId: 'cmd-1' });
      // Taken over: running again from then on.
      await expect(store.claim(1, 'k', 'fp', 'cmd-4', after(runningWindowMs + 1000))).resolves.toEqual({ kind: 'running' });
      await store.complete(1, 'k', { ok: true, value: 'done' });
      await expect(store.claim(1, 'k', 'fp', 'cmd-5', after(runningWindowMs + 2000))).resolves.toEqual({ kind: 'replay', reply: { ok: true, value: 'done' } });
    });

    it('lets the very command that claimed a key run again when it is delivered again', async () => {
      await store.claim(1, 'k', 'fp', 'cmd-1', t0);
      await expect(store.claim(1, 'k', 'fp', 'cmd-1', after(10))).resolves.toEqual({ kind: 'stale', commandId: 'cmd-1' });
    });

    it('forgets a key 24 hours after its first claim', async () => {
      await store.claim(1, 'k', 'fp', 'cmd-1', t0);
      await store.complete(1, 'k', { ok: true, value: 'old' });
      await expect(store.claim(1, 'k', 'other fp', 'cmd-2', after(keyLifetimeMs - 1))).resolves.toEqual({ kind: 'mismatch' });
      await expect(store.claim(1, 'k', 'other fp', 'cmd-3', after(keyLifetimeMs))).resolves.toEqual({ kind: 'new' });
      await expect(store.claim(1, 'k', 'other fp', 'cmd-4', after(keyLifetimeMs + 10))).resolves.toEqual({ kind: 'running' });
    });

    it('prunes expired keys, at most as many as asked, and keeps the others', async () => {
      for (const key of ['a', 'b', 'c']) await store.claim(1, key, 'fp', `cmd-${key}`, t0);
      await store.claim(1, 'young', 'fp', 'cmd-young', after(keyLifetimeMs / 2));
      await store.complete(1, 'young', { ok: true, value: 'kept' });

      await expect(store.prune(after(keyLifetimeMs), 2)).resolves.toBe(2);
      await expect(store.prune(after(keyLifetimeMs), 10)).resolves.toBe(1);
      await expect(store.prune(after(keyLifetimeMs), 10)).resolves.toBe(0);
      await expect(store.claim(1, 'young', 'fp', 'cmd-again', after(keyLifetimeMs))).resolves.toEqual({ kind: 'replay', reply: { ok: true, value: 'kept' } });
    });

    it('peeks at what a claim would find without claiming', async () => {
      await expect(store.peek(1, 'k', 'fp', 'cmd-1', t0)).resolves.toEqual({ kind: 'new' });
      await expect(store.peek(1, 'k', 'fp', 'cmd-1', t0)).resolves.toEqual({ kind: 'new' });
      await expect(store.claim(1, 'k', 'fp', 'cmd-1', t0)).resolves.toEqual({ kind: 'new' });
      await expect(store.peek(1, 'k', 'fp', 'cmd-2', after(10))).resolves.toEqual({ kind: 'running' });
      await expect(store.peek(1, 'k', 'other fp', 'cmd-2', after(10))).resolves.toEqual({ kind: 'mismatch' });
      await expect(store.peek(1, 'k', 'fp', 'cmd-2', after(runningWindowMs))).resolves.toEqual({ kind: 'stale', commandId: 'cmd-1' });
      // The peek took nothing over: a claim still finds the first claim abandoned.
      await expect(store.claim(1, 'k', 'fp', 'cmd-3', after(runningWindowMs))).resolves.toEqual({ kind: 'stale', commandId: 'cmd-1' });
      await store.complete(1, 'k', { ok: true, value: 'done' });
      await expect(store.peek(1, 'k', 'fp', 'cmd-4', after(runningWindowMs + 10))).resolves.toEqual({ kind: 'replay', reply: { ok: true, value: 'done' } });
    });

    it('keeps an answer under a free key in one step, and leaves a taken key as it is', async () => {
      const refusal = { ok: false as const, error: { code: 'invalid' as const, message: 'form_namespace: unknown' } };
      await store.keep({ orgId: 1, key: 'k', fingerprint: 'fp', commandId: 'cmd-1', now: t0 }, refusal);
      await expect(store.claim(1, 'k', 'fp', 'cmd-2', after(10))).resolves.toEqual({ kind: 'replay', reply: refusal });
      await expect(store.claim(1, 'k', 'other fp', 'cmd-3', after(10))).resolves.toEqual({ kind: 'mismatch' });

      await store.keep({ orgId: 1, key: 'k', fingerprint: 'fp', commandId: 'cmd-4', now: after(20) }, { ok: true, value: 'second' });
      await expect(store.claim(1, 'k', 'fp', 'cmd-5', after(30))).resolves.toEqual({ kind: 'replay', reply: refusal });

      await store.claim(1, 'running', 'fp', 'cmd-6', t0);
      await store.keep({ orgId: 1, key: 'running', fingerprint: 'fp', commandId: 'cmd-7', now: after(10) }, { ok: true, value: 'not kept' });
      await expect(store.claim(1, 'running', 'fp', 'cmd-8', after(20))).resolves.toEqual({ kind: 'running' });

      // An expired key is free again; so is the claim of a process that died.
      await store.keep({ orgId: 1, key: 'k', fingerprint: 'new fp', commandId: 'cmd-9', now: after(keyLifetimeMs) }, { ok: true, value: 'renewed' });
      await expect(store.claim(1, 'k', 'new fp', 'cmd-10', after(keyLifetimeMs + 10))).resolves.toEqual({ kind: 'replay', reply: { ok: true, value: 'renewed' } });
      await store.keep({ orgId: 1, key: 'running', fingerprint: 'fp', commandId: 'cmd-11', now: after(runningWindowMs) }, { ok: true, value: 'taken over' });
      await expect(store.claim(1, 'running', 'fp', 'cmd-12', after(runningWindowMs + 10))).resolves.toEqual({
        kind: 'replay',
        reply: { ok: true, value: 'taken over' },
      });
    });

    it('of many claims of one key at once, exactly one gets it', async () => {
      const outcomes = await Promise.all(Array.from({ length: 8 }, (_, i) => store.claim(1, 'race', 'fp', `cmd-${i}`, t0)));
      expect(outcomes.filter((o) => o.kind === 'new')).toHaveLength(1);
      expect(outcomes.filter((o) => o.kind === 'running')).toHaveLength(7);
    });
  });
}
