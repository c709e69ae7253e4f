import { createHash } from 'node:crypto';
import type { Request } from 'express';
import type { Idempotency } from '@formcast/contracts';
import { AppError } from '@formcast/platform';

const maxKeyLength = 255;

/** The Idempotency-Key of a POST, checked (400 naming the header); undefined without one, and on other methods (they are not creates). */
export function idempotencyKeyOf(req: Request): string | undefined {
  if (req.method !== 'POST') return undefined;
  const given = req.headers['idempotency-key'];
  if (given === undefined) return undefined;
  // Node joins a repeated header of this kind with ", "; the array is only in its types.
  const key = Array.isArray(given) ? given.join(', ') : given;
  if (key.length === 0) throw new AppError('invalid', 'Idempotency-Key: must not be empty');
  if (key.length > maxKeyLength) throw new AppError('invalid', `Idempotency-Key: must be at most ${maxKeyLength} characters`);
  return key;
}

/**
 * What makes two requests with one key the same request: method, full path (with its format
 * suffix and query: another format is another request) and body. The body is the bytes the
 * global parser read; a resource upload, streamed and never held whole, is hashed as what it
 * became: the command's payload and the decoded file.
 */
function fingerprintOf(req: Request, payload: unknown, attachment: Buffer | undefined): string {
  const hash = createHash('sha256').update(`${req.method} ${req.originalUrl}\n`);
  if (Buffer.isBuffer(req.body)) {
    hash.update(req.body);
  } else {
    hash.update(JSON.stringify(payload) ?? '');
    if (attachment) hash.update(attachment);
  }
  return hash.digest('base64url');
}

interface RequestIdempotency {
  key: string;
  fingerprint: string;
  commandsSent: number;
}

const byRequest = new WeakMap<Request, RequestIdempotency>();

/**
 * The `idempotency` of the next command a request sends, or undefined when the request has no
 * key. Its first command carries the key as given; should a request send several (the
 * Connections API makes one destination per connection), the n-th carries `<key>\n<n>`, a key
 * no header can hold, so each is answered once on its own.
 */
export function nextCommandIdempotency(req: Request, payload: unknown, attachment?: Buffer): Idempotency | undefined {
  let known = byRequest.get(req);
  if (!known) {
    const key = idempotencyKeyOf(req);
    if (key === undefined) return undefined;
    known = { key, fingerprint: fingerprintOf(req, payload, attachment), commandsSent: 0 };
    byRequest.set(req, known);
  }
  known.commandsSent += 1;
  const key = known.commandsSent === 1 ? known.key : `${known.key}\n${known.commandsSent}`;
  return { key, fingerprint: known.fingerprint };
}
