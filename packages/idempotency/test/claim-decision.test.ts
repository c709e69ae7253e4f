import { decideClaim, type KeyRecord } from '../src/claim-decision';
import { keyLifetimeMs, runningWindowMs } from '../src/idempotency-store';

const now = new Date('2030-01-02T00:00:00.000Z');
const at = now.getTime();
const request = { fingerprint: 'fp', commandId: 'cmd-2' };
const record = (fields: Partial<KeyRecord> = {}): KeyRecord => ({
  fingerprint: 'fp',
  commandId: 'cmd-1',
  createdAt: at - 1000,
  claimedAt: at - 1000,
  reply: null,
  ...fields,
});

describe('decideClaim', () => {
  it('claims an unknown key, stamped now', () => {
    expect(decideClaim(undefined, request, now)).toEqual({
      outcome: { kind: 'new' },
      write: 'insert',
      record: { fingerprint: 'fp', commandId: 'cmd-2', createdAt: at, claimedAt: at, reply: null },
    });
  });

  it('claims an expired key anew, whatever it held', () => {
    const expired = record({ createdAt: at - keyLifetimeMs, fingerprint: 'other', reply: { ok: true, value: 1 } });
    expect(decideClaim(expired, request, now)).toMatchObject({ outcome: { kind: 'new' }, write: 'insert' });
    expect(decideClaim({ ...expired, createdAt: at - keyLifetimeMs + 1 }, request, now).outcome).toEqual({ kind: 'mismatch' });
  });

  it('tells a mismatch before anything else, even a completed key', () => {
    expect(decideClaim(record({ fingerprint: 'other', reply: { ok: true, value: 1 } }), request, now)).toEqual({ outcome: { kind: 'mismatch' }, write: 'none' });
  });

  it('replays a completed key', () => {
    const reply = { ok: false as const, error: { code: 'invalid' as const, message: 'no' } };
    expect(decideClaim(record({ reply }), request, now)).toEqual({ outcome: { kind: 'replay', reply }, write: 'none' });
  });

  it('tells running from abandoned by the running window, and takes an abandoned one over', () => {
    expect(decideClaim(record({ claimedAt: at - runningWindowMs + 1 }), request, now)).toEqual({ outcome: { kind: 'running' }, write: 'none' });
    expect(decideClaim(record({ claimedAt: at - runningWindowMs }), request, now)).toEqual({
      outcome: { kind: 'stale', commandId: 'cmd-1' },
      write: 'reclaim',
      claimedAt: at,
    });
  });

  it('lets the claiming command itself, delivered again, run again', () => {
    expect(decideClaim(record(), { ...request, commandId: 'cmd-1' }, now).outcome).toEqual({ kind: 'stale', commandId: 'cmd-1' });
  });
});
