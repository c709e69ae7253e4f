import type { NextFunction, Request, Response } from 'express';
import type { ErrorBody } from '@formcast/contracts';
import { isAppError } from '@formcast/platform';
import { contentEncoding, decompressionFailed } from './body-decompression';
import { sendError } from './send-error';
import type { ResponseFormat } from './response-format';

/**
 * A body that is not what its Content-Encoding says: body-parser passes zlib's error on (as a
 * 400 with zlib's `code` and `errno`, and no `type`).
 */
function decompressionError(error: unknown, req: Request): ErrorBody | undefined {
  const encoding = contentEncoding(req.headers);
  const fault = error as { type?: unknown; code?: unknown; errno?: unknown } | null;
  if (encoding === 'identity' || fault?.type !== undefined || typeof fault?.code !== 'string' || typeof fault.errno !== 'number') return undefined;
  return decompressionFailed(encoding).toBody();
}

/** Errors body-parser raises while reading a body, by their `type`. */
function bodyReadError(error: unknown, req: Request): ErrorBody | undefined {
  const decompression = decompressionError(error, req);
  if (decompression) return decompression;
  const type = (error as { type?: unknown } | null)?.type;
  if (type === 'entity.too.large') return { code: 'too_large', message: 'The request body is too large' };
  if (type === 'encoding.unsupported' || type === 'charset.unsupported') {
    return { code: 'unsupported_media_type', message: 'Unsupported body encoding or charset' };
  }
  if (type === 'request.aborted' || type === 'request.size.invalid' || type === 'stream.encoding.set') {
    return { code: 'invalid', message: 'The request body could not be read' };
  }
  return undefined;
}

function errorFormat(req: Request): ResponseFormat | undefined {
  if (/\.json$/i.test(req.path)) return 'json';
  if (/\.xml$/i.test(req.path)) return 'xml';
  const accept = req.get('accept') ?? '';
  if (/json/i.test(accept)) return 'json';
  if (/xml/i.test(accept)) return 'xml';
  return /xml/i.test(req.get('content-type') ?? '') ? 'xml' : 'json';
}

/** The last middleware: every error becomes a status from the one table, never internals. */
export function errorHandler(error: unknown, req: Request, res: Response, _next: NextFunction): void {
  let body = isAppError(error) ? error.toBody() : bodyReadError(error, req);
  if (!body) {
    req.context?.logger.error({ err: error }, 'unexpected error');
    body = { code: 'internal', message: 'Internal error' };
  } else if (body.code === 'internal' || body.code === 'unavailable' || body.code === 'timeout') {
    req.context?.logger.warn({ code: body.code, message: body.message }, 'request failed');
  }
  if (res.headersSent) {
    res.end();
    return;
  }
  sendError(res, body, errorFormat(req));
}
