import { z } from 'zod';

/**
 * Every failure that crosses a service boundary carries one of these codes. The gateway
 * maps them to HTTP statuses in one table (services/gateway/src/http/error-status.ts).
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
  'unavailable', // a dependency is down: 503
  'timeout', // no reply in time: 504
  'internal', // a bug: 500, no internals shown
] as const;

export type ErrorCode = (typeof errorCodes)[number];

export const errorCodeSchema = z.enum(errorCodes);

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
