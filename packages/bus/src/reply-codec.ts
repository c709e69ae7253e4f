import { replySchema, type Reply } from '@formcast/contracts';
import { AppError, toErrorBody } from '@formcast/platform';

/** A handler's result as a reply; `undefined` becomes `null` so the reply stays valid JSON. */
export function replyWithValue(value: unknown): Reply {
  return { ok: true, value: value === undefined ? null : value };
}

/** A thrown value as a reply: AppErrors keep their code, anything else is `internal` without internals. */
export function replyWithError(error: unknown): Reply {
  return { ok: false, error: toErrorBody(error) };
}

export function encodeReply(reply: Reply): string {
  try {
    return JSON.stringify(reply);
  } catch {
    return JSON.stringify(replyWithError(new AppError('internal', 'The reply is not JSON-serializable')));
  }
}

export function decodeReply(content: Buffer | string): Reply {
  let json: unknown;
  try {
    json = JSON.parse(content.toString());
  } catch {
    json = undefined;
  }
  const parsed = replySchema.safeParse(json);
  return parsed.success
    ? (parsed.data as Reply)
    : { ok: false, error: { code: 'internal', message: 'Received a malformed reply' } };
}

/** The reply's value, or its error thrown as an AppError. */
export function valueOfReply<T>(reply: Reply): T {
  if (reply.ok) return reply.value as T;
  throw AppError.fromBody(reply.error);
}
