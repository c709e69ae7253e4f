import { errorCodes, replySchema, type ErrorCode, type Reply } from '@formcast/contracts';
import { AppError, toErrorBody } from '@formcast/platform';

/** What a command handler returns to reply with bytes beside its value (see `withAttachment`). */
export class ValueWithAttachment<T = unknown> {
  constructor(
    readonly value: T,
    readonly attachment: Buffer,
  ) {}
}

/** A handler's reply carrying `bytes` beside `value` (a file to download), never inside its JSON. */
export function withAttachment<T>(value: T, bytes: Buffer): ValueWithAttachment<T> {
  return new ValueWithAttachment(value, bytes);
}

/** A handler's result as a reply; `undefined` becomes `null` so the reply stays valid JSON. */
export function replyWithValue(result: unknown): Reply {
  if (result instanceof ValueWithAttachment) {
    return { ok: true, value: result.value === undefined ? null : result.value, attachment: result.attachment };
  }
  return { ok: true, value: result === undefined ? null : result };
}

/** A thrown value as a reply: AppErrors keep their code, anything else is `internal` without internals. */
export function replyWithError(error: unknown): Reply {
  return { ok: false, error: toErrorBody(error) };
}

/** The reply's JSON, without its attachment (which travels apart). */
export function encodeReply(reply: Reply): string {
  try {
    return JSON.stringify(reply.ok && reply.attachment ? { ok: true, value: reply.value } : reply);
  } catch {
    return JSON.stringify(replyWithError(new AppError('internal', 'The reply is not JSON-serializable')));
  }
}

export function decodeReply(content: Buffer | string, attachment?: Buffer): Reply {
  const reply = decodeReplyJson(content);
  return reply.ok && attachment ? { ...reply, attachment } : reply;
}

function decodeReplyJson(content: Buffer | string): Reply {
  let json: unknown;
  try {
    json = JSON.parse(content.toString());
  } catch {
    json = undefined;
  }
  const reply = wellFormedReply(json);
  if (reply) return reply;
  const parsed = replySchema.safeParse(json);
  return parsed.success
    ? (parsed.data as Reply)
    : { ok: false, error: { code: 'internal', message: 'Received a malformed reply' } };
}

const knownCodes: ReadonlySet<string> = new Set(errorCodes);

/**
 * The reply `replySchema` would make of `value`, for the shapes it certainly accepts (what
 * `encodeReply` writes), without zod's cost on every reply; undefined for anything else,
 * which `decodeReply` leaves to `replySchema` itself. Like zod, it keeps only the known fields.
 */
export function wellFormedReply(value: unknown): Reply | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const { ok, value: replied, error } = value as Record<string, unknown>;
  if (ok === true) return replied === undefined ? undefined : { ok: true, value: replied };
  if (ok !== false || typeof error !== 'object' || error === null || Array.isArray(error)) return undefined;
  const { code, message, details } = error as Record<string, unknown>;
  if (typeof code !== 'string' || !knownCodes.has(code) || typeof message !== 'string') return undefined;
  if (details !== undefined) return { ok: false, error: { code: code as ErrorCode, message, details } };
  return 'details' in error ? undefined : { ok: false, error: { code: code as ErrorCode, message } };
}

/** The reply's value, or its error thrown as an AppError. */
export function valueOfReply<T>(reply: Reply): T {
  if (reply.ok) return reply.value as T;
  throw AppError.fromBody(reply.error);
}

/** The reply's value and attachment, or its error thrown as an AppError. */
export function valueAndAttachmentOfReply<T>(reply: Reply): { value: T; attachment?: Buffer } {
  const value = valueOfReply<T>(reply);
  return reply.ok && reply.attachment ? { value, attachment: reply.attachment } : { value };
}
