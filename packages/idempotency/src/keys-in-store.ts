import type { CommandHandler } from '@formcast/bus';
import type { Envelope } from '@formcast/contracts';
import type { IdempotencyStore, KeyFound, KeyRequest } from './idempotency-store';
import { answerFound, isKeptRefusal, type IdempotentOptions } from './idempotent';

/** What a run with a key answers: its value, or what its own write found under the key instead (and so did not write). */
export type KeyedAnswer = { value: unknown } | { found: KeyFound };

/**
 * A command's run that records its key itself: with `key`, its write decides on the key (as
 * `decideClaim` does) and, when the key is free, records the answer in the same transaction
 * as what it creates; otherwise it writes nothing and answers what it found. Without a key
 * (null), it just runs.
 */
export type KeyedRun = (command: Envelope, key: KeyRequest | null) => Promise<KeyedAnswer>;

/**
 * Once per Idempotency-Key, as `idempotent` answers, for a handler whose store writes the key
 * with its create (`run`): no claim before the run and no completion after it, so a keyed
 * create costs one commit, like one without a key, and no crash can leave the create made
 * and its answer unrecorded.
 *
 * `keys` holds the same keys the run writes. It is read first (no write): a request whose
 * key is found taken is answered at once (the first answer, 422 for another request, 409
 * while a claim runs), without the lookups a run would make again, which could answer
 * otherwise by now. A refusal (4xx) thrown before the run's write is kept with `keys.keep`,
 * so it is answered again, as `idempotent` does; other errors leave the key free.
 */
export function idempotentInStore(keys: IdempotencyStore, run: KeyedRun, options: IdempotentOptions = {}): CommandHandler {
  const clock = options.clock ?? (() => new Date());
  return async (command) => {
    const { idempotency, orgId } = command;
    if (!idempotency || orgId === null) return settle(await run(command, null));

    const { key, fingerprint } = idempotency;
    const now = clock();
    const peeked = await keys.peek(orgId, key, fingerprint, command.id, now);
    if (peeked.kind !== 'new' && peeked.kind !== 'stale') return answerFound(peeked);
    // A claim left by a process that died (see ClaimOutcome 'stale'): run under its command id.
    const commandId = peeked.kind === 'stale' ? peeked.commandId : command.id;
    const request: KeyRequest = { orgId, key, fingerprint, commandId, now };

    let answered: KeyedAnswer;
    try {
      answered = await run(command, request);
    } catch (error) {
      if (isKeptRefusal(error)) await keys.keep(request, { ok: false, error: error.toBody() });
      throw error;
    }
    return settle(answered);
  };
}

function settle(answered: KeyedAnswer): unknown {
  return 'found' in answered ? answerFound(answered.found) : answered.value;
}
