import type { IncomingMessage } from 'node:http';
import type { Transform } from 'node:stream';
import { AppError } from '@formcast/platform';
import { refuseUnwritableText } from '../../xml/unwritable-text';
import { contentEncoding, decompressionFailed, decompressorFor } from '../body-decompression';
import { acceptBody, permitBody } from '../body-watch';
import { listenToBody, stopReadingBody } from '../limited-body';
import { formUploadParser } from './form-upload-parser';
import { jsonUploadParser } from './json-upload-parser';
import type { UploadParser } from './upload-parser';

/**
 * A resource body as readBody would give it, except that resource.file.file_data, when it is
 * a string, is the Base64Decoder that decoded it.
 */
export type ResourceUpload = { kind: 'json' | 'form'; value: unknown } | { kind: 'empty' };

export interface ResourceUploadLimits {
  /** The largest body read (`resourceBodyLimit`). */
  bodyLimitBytes: number;
  /** RESOURCE_MAX_BYTES: the largest file, once decoded. */
  maxFileBytes: number;
}

/** The body's kind by its Content-Type, as readBody tells them. */
function bodyKind(req: IncomingMessage): 'json' | 'form' | 'xml' | 'other' {
  const type = (req.headers['content-type'] ?? '').toLowerCase();
  if (/^application\/([\w.+-]+\+)?json\b/.test(type)) return 'json';
  if (/^(application|text)\/([\w.+-]+\+)?xml\b/.test(type)) return 'xml';
  if (type.startsWith('application/x-www-form-urlencoded')) return 'form';
  return 'other';
}

/** The refusal of a body of the wrong kind, once it is known not to be empty. */
function wrongKind(kind: 'xml' | 'other'): AppError {
  return kind === 'xml'
    ? new AppError('unsupported_media_type', 'Resources take application/json or application/x-www-form-urlencoded, not XML')
    : new AppError(
        'unsupported_media_type',
        'Send the resource as application/json ({"resource": {...}}) or application/x-www-form-urlencoded (resource[file][file_data]=...)',
      );
}

/**
 * Reads a resource create/update body once, as it arrives, without ever holding it or the
 * file's Base64 whole: the text goes through a streaming JSON or form parser that decodes
 * file_data into one Buffer. A body compressed as gzip, deflate or br is decompressed on the
 * way, the limits applying to what it decompresses to. Refusals are those of readLimitedBody
 * and readBody:
 * - 415 for an unknown Content-Encoding; 413 from Content-Length before reading, or as soon
 *   as the (decompressed) body passes the limit, the file passes RESOURCE_MAX_BYTES by far
 *   or the other fields their budget; 400 as soon as a compressed body fails to decompress:
 *   then the rest is dropped within drainRefusedBody's bounds (stopReadingBody), and the
 *   body's deadline and those bounds follow the resources' limit (permitBody).
 * - 400s (UTF-8, malformed JSON, nesting, text XML cannot carry) and 415 for other types wait
 *   for the end of the body, so they come in readBody's order: size, then UTF-8, then syntax.
 */
export function readResourceUpload(req: IncomingMessage, limits: ResourceUploadLimits): Promise<ResourceUpload> {
  const declared = req.headers['content-length'];
  if (declared === undefined && req.headers['transfer-encoding'] === undefined) return Promise.resolve({ kind: 'empty' });
  permitBody(req, limits.bodyLimitBytes);
  const encoding = contentEncoding(req.headers);
  let decompressor: Transform | undefined;
  try {
    decompressor = encoding === 'identity' ? undefined : decompressorFor(encoding);
  } catch (error) {
    return Promise.reject(error);
  }
  const tooLarge = () =>
    new AppError('too_large', `The request body is too large: a resource file may be at most ${limits.maxFileBytes} bytes`);
  if (declared !== undefined && Number(declared) > limits.bodyLimitBytes) {
    stopReadingBody(req);
    return Promise.reject(tooLarge());
  }

  acceptBody(req);
  const kind = bodyKind(req);
  // The file decodes to at most 3/4 of the body: its buffer is allocated once at that size.
  // A chunked body gets the largest file's size at once: pages become resident only as they
  // are written, whereas growing by doubling keeps the old buffer alive while the new fills.
  const parserOptions = {
    maxBytes: limits.maxFileBytes,
    sizeHint: declared === undefined || decompressor ? limits.maxFileBytes : Math.floor((Number(declared) * 3) / 4),
  };
  const parser: UploadParser | undefined =
    kind === 'json' ? jsonUploadParser(parserOptions) : kind === 'form' ? formUploadParser(parserOptions) : undefined;
  // readBody decodes every body but those of an unknown type.
  const utf8 = kind === 'other' ? undefined : new TextDecoder('utf-8', { fatal: true });

  return new Promise((resolve, reject) => {
    let received = 0;
    let notUtf8 = false;
    /** A 400 found on the way: given once the rest has been read, unless a 413 comes first. */
    let deferred: unknown;
    let settled = false;

    const settle = (outcome: { error: unknown } | { upload: ResourceUpload }) => {
      if (settled) return;
      settled = true;
      stopListening();
      if ('error' in outcome) reject(outcome.error);
      else resolve(outcome.upload);
    };
    const refuseNow = (error: unknown) => {
      stopDecompressing();
      stopReadingBody(req);
      settle({ error });
    };
    const feed = (text: string) => {
      if (!parser || deferred !== undefined) return;
      try {
        parser.write(text);
      } catch (error) {
        if (error instanceof AppError && error.code === 'invalid') deferred = error;
        else refuseNow(error);
      }
    };
    const decode = (chunk?: Buffer) => {
      if (!utf8 || notUtf8) return;
      try {
        feed(chunk ? utf8.decode(chunk, { stream: true }) : utf8.decode());
      } catch {
        notUtf8 = true;
      }
    };

    const onData = (chunk: Buffer) => {
      received += chunk.length;
      if (received > limits.bodyLimitBytes) refuseNow(tooLarge());
      else decode(chunk);
    };
    const onEnd = () => {
      decode();
      if (settled) return;
      if (received === 0) return settle({ upload: { kind: 'empty' } });
      if (notUtf8) return settle({ error: new AppError('invalid', 'The request body is not valid UTF-8') });
      if (kind === 'xml' || kind === 'other') return settle({ error: wrongKind(kind) });
      if (deferred !== undefined) return settle({ error: deferred });
      try {
        const value = parser!.end();
        refuseUnwritableText(value, 'json');
        settle({ upload: { kind, value } });
      } catch (error) {
        settle({ error });
      }
    };
    const onError = () => settle({ error: new AppError('invalid', 'The request body could not be read') });
    const stopDecompressing = () => {
      if (!decompressor) return;
      req.unpipe(decompressor);
      decompressor.destroy();
    };
    const stopListening = decompressor
      ? listenToDecompressed(req, decompressor, { onData, onEnd, onError, onCorrupt: () => refuseNow(decompressionFailed(encoding)) })
      : listenToBody(req, { onData, onEnd, onError });
  });
}

/**
 * listenToBody for a compressed body: its decompressed chunks go to `onData`; a body that is
 * not what its encoding says goes to `onCorrupt`. Returns what stops listening.
 */
function listenToDecompressed(
  req: IncomingMessage,
  decompressor: Transform,
  handlers: { onData: (chunk: Buffer) => void; onEnd: () => void; onError: () => void; onCorrupt: () => void },
): () => void {
  const stopListeningToRequest = listenToBody(req, { onData: () => undefined, onEnd: () => undefined, onError: handlers.onError });
  decompressor.on('data', handlers.onData);
  decompressor.on('end', handlers.onEnd);
  decompressor.on('error', handlers.onCorrupt);
  req.pipe(decompressor);
  return () => {
    stopListeningToRequest();
    decompressor.off('data', handlers.onData);
    decompressor.off('end', handlers.onEnd);
    decompressor.off('error', handlers.onCorrupt);
    // A late error of a destroyed decompressor has nowhere to go.
    decompressor.on('error', () => undefined);
  };
}
