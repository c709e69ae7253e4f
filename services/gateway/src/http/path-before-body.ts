import type { NextFunction, Request, Response } from 'express';
import type { Bus } from '@formcast/bus';
import {
  createEnvelope,
  deliveryCommands,
  directoryCommands,
  pushCommands,
  resourceCommands,
} from '@formcast/contracts';
import { AppError, isAppError } from '@formcast/platform';
import { pathId } from './path-params';

import type { Lookup } from '../route-table/declaration';
import { pathIdMatcher } from '../route-table/path-matcher';
import { routeTable } from '../route-table';

interface PathCheck {
  /** Matched against the request's path; captures the path's ids, in order. */
  path: RegExp;
  /** Rejects with AppError('not_found') when an id does not exist for the request's organization (or device). */
  check: (lookup: Lookup, ids: string[], req: Request) => Promise<unknown>;
}

/** One path segment, without a `.json`/`.xml` suffix (in any case, as the router takes paths and format-suffix.ts suffixes). */
const id = '([^/]+?)(?:\\.(?:json|xml))?';
const segment = (pattern: string) => new RegExp(`^${pattern}(?:/|$)`, 'i');

function decoded(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
}

/**
 * The paths outside the route table whose ids only a service can resolve, most specific
 * first, and the lookup that tells whether they exist. The table's routes declare their own
 * (route-table/). A path that matches neither has no such id.
 */
const pathChecks: PathCheck[] = [
  { path: segment(`/api(?:/v[34])?/resources/${id}`), check: (lookup, [resource]) => lookup(resourceCommands.describeResource, { resourceId: pathId(resource, 'Resource') }) },
];

const declaredIds = pathIdMatcher(routeTable);

/** A refusal of the body: its size, encoding, type, syntax or meaning (a service's too). */
function isBodyRefusal(error: unknown): boolean {
  if (!isAppError(error)) return (error as { status?: unknown } | null)?.status !== undefined; // body-parser's errors
  return error.code === 'invalid' || error.code === 'too_large' || error.code === 'unsupported_media_type' || error.code === 'unprocessable';
}

/**
 * The order of checks holds for ids only a service can resolve: when the body is refused
 * (400, 413, 415, 422), the path's ids are looked up first, and an unknown one (or another
 * organization's) answers 404 instead, whatever the body, the mode or the timing. It costs a
 * lookup on refusals only; a request with a good body is checked by the service that
 * handles it, path first.
 */
export function pathBeforeBody(bus: Bus, timeoutMs: number) {
  return async (error: unknown, req: Request, res: Response, next: NextFunction): Promise<void> => {
    const authenticated = req.context?.orgId !== undefined;
    if (res.headersSent || !authenticated || !isBodyRefusal(error)) {
      next(error);
      return;
    }
    const path = req.originalUrl.split('?')[0]!;
    const declared = declaredIds(req, path);
    const match = declared ? undefined : pathChecks.map((entry) => ({ entry, ids: entry.path.exec(path) })).find(({ ids }) => ids !== null);
    if (!declared && !match) {
      next(error);
      return;
    }
    const lookup: Lookup = (type, payload) =>
      bus.request(createEnvelope(type, payload, { orgId: req.context.orgId ?? null, requestId: req.context.requestId }), { timeoutMs });
    try {
      if (declared) for (const id of declared.checks) await id.resolve(lookup, declared.ids, req);
      else await match!.entry.check(lookup, match!.ids!.slice(1).map(decoded), req);
    } catch (pathError) {
      if (isAppError(pathError) && pathError.code === 'not_found') {
        next(pathError);
        return;
      }
    }
    next(error);
  };
}
