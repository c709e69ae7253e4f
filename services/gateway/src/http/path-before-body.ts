import type { NextFunction, Request, Response } from 'express';
import type { Bus } from '@formcast/bus';
import { createEnvelope } from '@formcast/contracts';
import { isAppError } from '@formcast/platform';
import { routeTable } from '../route-table';
import type { Lookup } from '../route-table/declaration';
import { pathIdMatcher } from '../route-table/path-matcher';

/** The path ids each route of the table declares, and how each is resolved (route-table/path-ids.ts). */
const declaredIds = pathIdMatcher(routeTable);

/** A refusal of the body: its size, encoding, type, syntax or meaning (a service's too). */
function isBodyRefusal(error: unknown): boolean {
  if (!isAppError(error)) return (error as { status?: unknown } | null)?.status !== undefined; // body-parser's errors
  return error.code === 'invalid' || error.code === 'too_large' || error.code === 'unsupported_media_type' || error.code === 'unprocessable';
}

/**
 * The order of checks holds for ids only a service can resolve: when the body is refused
 * (400, 413, 415, 422), the path's ids are looked up first, each by its own lookup as its
 * route declares it, and an unknown one (or another organization's) answers 404 instead,
 * whatever the body, the mode or the timing. It costs a lookup on refusals only; a request
 * with a good body is checked by the service that handles it, path first.
 */
export function pathBeforeBody(bus: Bus, timeoutMs: number) {
  return async (error: unknown, req: Request, res: Response, next: NextFunction): Promise<void> => {
    const authenticated = req.context?.orgId !== undefined;
    if (res.headersSent || !authenticated || !isBodyRefusal(error)) {
      next(error);
      return;
    }
    const declared = declaredIds(req, req.originalUrl.split('?')[0]!);
    if (!declared) {
      next(error);
      return;
    }
    const lookup: Lookup = (type, payload) =>
      bus.request(createEnvelope(type, payload, { orgId: req.context.orgId ?? null, requestId: req.context.requestId }), { timeoutMs });
    try {
      for (const id of declared.checks) await id.resolve(lookup, declared.ids, req);
    } catch (pathError) {
      if (isAppError(pathError) && pathError.code === 'not_found') {
        next(pathError);
        return;
      }
    }
    next(error);
  };
}
