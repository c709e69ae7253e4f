import type { NextFunction, Request, Response } from 'express';
import { AppError } from '@formcast/platform';

/** Paths outside the product's API, whose last segment is a name (a dead-letter queue's, a file's), never a format. */
const notTheApi = /^\/(?:admin|console)(?:\/|$)/;

/**
 * Decides a path's format suffix before any route runs, on every route of the API, as the
 * path's ids are decided before its body (path-before-body.ts): the suffixes the product's
 * docs write, `.json` and `.xml`, in any case (`.JSON`, `.XML`), are rewritten to lower case,
 * so each route sees its own; any other suffix (`.foo`, `.exe`, `.%00`) is refused with 404
 * here, before authentication, a body or a command, so no route can act on it and answer 404
 * afterwards. A route that has no such form (`/forms/5.xml` before forms spoke XML) still
 * answers 404 through its own id check or by matching no route.
 */
export function decideFormatSuffix(req: Request, _res: Response, next: NextFunction): void {
  if (notTheApi.test(req.path)) {
    next();
    return;
  }
  const queryAt = req.url.indexOf('?');
  const path = queryAt === -1 ? req.url : req.url.slice(0, queryAt);
  const segment = path.slice(path.lastIndexOf('/') + 1);
  const dot = segment.lastIndexOf('.');
  // No dot, a dot that starts the segment (`..`) or ends it: no suffix, the route decides.
  if (dot <= 0 || dot === segment.length - 1) {
    next();
    return;
  }
  const suffix = segment.slice(dot + 1);
  const lower = suffix.toLowerCase();
  if (lower !== 'json' && lower !== 'xml') {
    throw new AppError('not_found', `No .${suffix.slice(0, 40)} form of this resource: use .json or .xml`);
  }
  if (suffix !== lower) req.url = `${path.slice(0, path.length - suffix.length)}${lower}${queryAt === -1 ? '' : req.url.slice(queryAt)}`;
  next();
}
