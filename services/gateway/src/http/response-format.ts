import type { Request } from 'express';
import { AppError } from '@formcast/platform';

export type ResponseFormat = 'json' | 'xml';

function fromMediaType(value: string | undefined): ResponseFormat | undefined {
  if (!value) return undefined;
  if (/\bjson\b/i.test(value)) return 'json';
  if (/\bxml\b/i.test(value)) return 'xml';
  return undefined;
}

/**
 * The response format, as the real product picks it: a `.json`/`.xml` path suffix first;
 * then the request's Content-Type for writes, or Accept; else the endpoint's default.
 */
export function responseFormat(req: Request, fallback: ResponseFormat, options: { byContentType?: boolean } = {}): ResponseFormat {
  const suffix = (req.params as Record<string, string | undefined>)['format'];
  if (suffix === 'json' || suffix === 'xml') return suffix;
  if (suffix !== undefined) throw new AppError('not_found', `No .${suffix} form of this resource: use .json or .xml`);
  const hasBody = (options.byContentType ?? true) && req.method !== 'GET' && req.method !== 'HEAD' && req.method !== 'DELETE';
  const accept = req.get('accept');
  return (
    (hasBody ? fromMediaType(req.get('content-type')) : undefined) ??
    (accept && !accept.startsWith('*/*') ? fromMediaType(accept) : undefined) ??
    fallback
  );
}
