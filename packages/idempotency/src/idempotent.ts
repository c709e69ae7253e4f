import type { CommandHandler } from '@formcast/bus';
import type { ErrorCode } from '@formcast/contracts';
import { AppError, isAppError } from '@formcast/platform';
import type { IdempotencyStore, KeyFound, StoredReply } from './idempotency-store';

export interface IdempotentOptions {
  /** The time claims are made at; tests move it. */
  clock?: () => Date;
}

/**
 * The refusals a key keeps and answers again: the request was handled and refused (4xx).
 * Anything else (unavailable, timeout, a bug) leaves the key free, so a retry runs again.
 */
const keptErrorCodes: ReadonlySet<ErrorCode> = new Set<ErrorCode>([
  'invalid',
  'forbidden',
  'not_found',
  'conflict',
  'not_modified',
  'too_large',
  'unsupported_media_type',
  'unprocessable',
]);

export const stillRunningMessage = 'A request with this Idempotency-Key is still being processed: try again in a moment';
export const mismatchMessage =
  'This Idempotency-Key was already used for a different request (another method, path or body): use a new key for a new request';

function replay(reply: StoredReply): unknown {
  if (reply.ok) return reply.value;
  throw AppError.fromBody(reply.error);
}

/** The answer to a request whose key was found taken: the first answer again, 409 while that one runs, 422 for another request. */
export function answerFound(found: KeyFound): unknown {
  if (found.kind === 'replay') return replay(found.reply);
  if (found.kind === 'running') throw new AppError('conflict', stillRunningMessage);
  throw new AppError('unprocessable', mismatchMessage);
}

/** Whether a handler's error is a refusal the key keeps and answers again (a 4xx). */
export function isKeptRefusal(error: unknown): error is AppError {
  return isAppError(error) && keptErrorCodes.has(error.code);
}

/**
 * `handler`, answering once per Idempotency-Key of an organization (the command's
 * `idempotency`, set by the gateway; without it, or without an organization, it just runs).
 * The first request with a key runs and its answer (value, or 4xx refusal) is kept; the same
 * request again gets that answer back without running; another request with the key gets 422;
 * one arriving while the first still runs gets 409. A claim left unfinished by a process that
 * died runs again under the first attempt's command id (see ClaimOutcome 'stale').
 */
export function idempotent(store: IdempotencyStore, handler: CommandHandler, options: IdempotentOptions = {}): CommandHandler {
  const clock = options.clock ?? (() => new Date());
  return async (command) => {
    const { idempotency, orgId } = command;
    if (!idempotency || orgId === null) return handler(command);
    const { key, fingerprint } = idempotency;
    const claimed = await store.claim(orgId, key, fingerprint, command.id, clock());
    if (claimed.kind !== 'new' && claimed.kind !== 'stale') return answerFound(claimed);

    const run = claimed.kind === 'stale' ? { ...command, id: claimed.commandId } : command;
    let value: unknown;
    try {
      value = await handler(run);
    } catch (error) {
      if (isKeptRefusal(error)) {
        await store.complete(orgId, key, { ok: false, error: error.toBody() });
      } else {
        // Should the release fail too, the key stays claimed: 409 for a minute, then a retry
        // runs again as after a crash. The handler's error is the answer either way.
        await store.release(orgId, key).catch(() => undefined);
      }
      throw error;
    }
    await store.complete(orgId, key, { ok: true, value });
    return value;
  };
}
