import type { Response } from 'express';
import type { ResourceFileView } from '@formcast/contracts';

/**
 * The file name as an ASCII quoted-string (RFC 6266 `filename=`, for old clients): only
 * printable ASCII is kept; quotes, backslashes, path separators and everything else become
 * `_`, so the header can neither be broken nor name a path.
 */
export function asciiFileName(name: string): string {
  const safe = name.replace(/[^\x20-\x7e]|["\\/%]/g, '_').trim();
  return safe === '' ? 'download' : safe;
}

/** RFC 8187 attr-char: the bytes an ext-value may hold as they are. */
const attrChar = /^[A-Za-z0-9!#$&+\-.^_`|~]$/;

/**
 * The file name as an RFC 8187 ext-value (`filename*=UTF-8''…`): its UTF-8 bytes (a lone
 * surrogate becomes U+FFFD), percent-encoded except attr-chars. Path separators become `_`,
 * as in the ASCII form.
 */
export function encodedFileName(name: string): string {
  let encoded = '';
  for (const byte of Buffer.from(name.replace(/[\\/]/g, '_'), 'utf8')) {
    const char = String.fromCharCode(byte);
    encoded += attrChar.test(char) ? char : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return encoded;
}

/** `attachment; filename="…"; filename*=UTF-8''…` for a stored file name. */
export function contentDisposition(fileName: string): string {
  return `attachment; filename="${asciiFileName(fileName)}"; filename*=UTF-8''${encodedFileName(fileName)}`;
}

/** Text types are stored only once checked as UTF-8, so they say so. */
function contentTypeHeader(type: string): string {
  return /^text\//.test(type) ? `${type}; charset=utf-8` : type;
}

/**
 * A resource's bytes as the download answer: its type, a Content-Disposition naming the
 * file, and `nosniff` so a browser never runs an uploaded file as something else.
 */
export function sendResourceFile(res: Response, file: ResourceFileView, bytes: Buffer): void {
  res.status(200);
  res.setHeader('Content-Type', contentTypeHeader(file.content_type));
  res.setHeader('Content-Disposition', contentDisposition(file.file_name));
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Content-Length', String(bytes.length));
  res.end(bytes);
}
