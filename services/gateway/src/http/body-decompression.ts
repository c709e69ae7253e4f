import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import type { Transform } from 'node:stream';
import { AppError } from '@formcast/platform';

/** A request's Content-Encoding, lower-cased; `identity` when it has none. */
export function contentEncoding(headers: { 'content-encoding'?: string }): string {
  return (headers['content-encoding'] ?? 'identity').toLowerCase();
}

/**
 * The stream that decompresses a body of this Content-Encoding: those body-parser takes for
 * every other route (deflate, gzip, br). Any other is AppError('unsupported_media_type'), as
 * body-parser answers it.
 */
export function decompressorFor(encoding: string): Transform {
  if (encoding === 'gzip') return createGunzip();
  if (encoding === 'deflate') return createInflate();
  if (encoding === 'br') return createBrotliDecompress();
  throw new AppError('unsupported_media_type', `Content-Encoding ${encoding} is not accepted: send the body uncompressed, or as gzip, deflate or br`);
}

/** A body that is not what its Content-Encoding says: a bad request, never a server error. */
export function decompressionFailed(encoding: string): AppError {
  return new AppError('invalid', `body: could not be decompressed (${encoding})`);
}
