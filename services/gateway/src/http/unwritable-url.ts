import type { NextFunction, Request, Response } from 'express';
import { AppError } from '@formcast/platform';
import { refuseUnwritableText } from '../xml/unwritable-text';

/** A path segment as the router decodes it for a parameter. */
function decodedSegment(segment: string): string {
  if (!segment.includes('%')) return segment;
  try {
    return decodeURIComponent(segment);
  } catch {
    throw new AppError('invalid', `path: "${segment}" is not valid percent-encoding`);
  }
}

/**
 * Refuses, before any route, a path or query string whose decoded text XML cannot carry
 * (`/clients/%00/oneshots`, `?device_id=%07`), or a path segment that cannot be decoded at
 * all: 400 naming the path or the query parameter. Such text can name nothing stored (it is
 * refused in every body), and would otherwise reach a service's lookups and the messages of
 * its answers.
 */
export function refuseUnwritableUrl(req: Request, _res: Response, next: NextFunction): void {
  for (const segment of req.path.split('/')) refuseUnwritableText(decodedSegment(segment), 'json', 'path');
  for (const [name, value] of Object.entries(req.query)) {
    refuseUnwritableText(name, 'json', 'query');
    refuseUnwritableText(value, 'json', name);
  }
  next();
}
