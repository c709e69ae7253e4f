import { z } from 'zod';

/**
 * Every failure that crosses a service boundary carries one of these codes, mapped to HTTP
 * statuses in one table (`errorStatus`, below).
 */
export const errorCodes = [
  'invalid', // the request is malformed or breaks a rule: 400
  'unauthorized', // missing or wrong credentials: 401
  'forbidden', // authenticated but not allowed: 403
  'not_found', // unknown id, or another organization's: 404
  'conflict', // duplicate: 409
  'not_modified', // nothing to create, it exists already: 304
  'too_large', // body or file over its limit: 413
  'unsupported_media_type', // content type not accepted: 415
  'unprocessable', // well-formed but the content is wrong for its type: 422
  'rate_limited', // past a rate limit: 429 (with Retry-After)
  'unavailable', // a dependency is down: 503
  'timeout', // no reply in time: 504
  'internal', // a bug: 500, no internals shown
] as const;

export type ErrorCode = (typeof errorCodes)[number];

export const errorCodeSchema = z.enum(errorCodes);

/**
 * The one place error codes become HTTP statuses: the gateway's answers, and the statuses a
 * service reports per item where one command carries many (bulk dispatch).
 */
export const errorStatus: Record<ErrorCode, number> = {
  invalid: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  not_modified: 304,
  too_large: 413,
  unsupported_media_type: 415,
  unprocessable: 422,
  rate_limited: 429,
  unavailable: 503,
  timeout: 504,
  internal: 500,
};

export interface ErrorBody {
  code: ErrorCode;
  message: string;
  details?: unknown;
}

/** A command's reply: a value, or an error with a code. */
/** `attachment`: bytes beside the value, never in its JSON (see Envelope.attachment). */
export type Reply<T = unknown> = { ok: true; value: T; attachment?: Buffer } | { ok: false; error: ErrorBody };

export const replySchema = z.union([
  z.object({ ok: z.literal(true), value: z.unknown() }),
  z.object({
    ok: z.literal(false),
    error: z.object({ code: errorCodeSchema, message: z.string(), details: z.unknown().optional() }),
  }),
]);
