import type { NextFunction, Request, Response } from 'express';
import { randomUUID } from 'node:crypto';
import { withoutRedaction, withRequestId, type Logger } from '@formcast/platform';

/** What the gateway knows about a request once it passed authentication. */
export interface RequestContext {
  requestId: string;
  logger: Logger;
  orgId?: number;
  /** Set when a device authenticated with its secret. */
  deviceId?: number;
}

declare module 'express-serve-static-core' {
  interface Request {
    context: RequestContext;
  }
}

const acceptableRequestId = /^[A-Za-z0-9._:-]{1,128}$/;

/** A request's context; its logger (a child stamping the request id) is made when first used, which most requests never do. */
class Context implements RequestContext {
  orgId?: number;
  deviceId?: number;
  private requestLogger: Logger | undefined;

  constructor(
    private readonly baseLogger: Logger,
    readonly requestId: string,
  ) {}

  get logger(): Logger {
    this.requestLogger ??= withRequestId(this.baseLogger, this.requestId);
    return this.requestLogger;
  }
}

/**
 * A request id (the caller's `X-Request-Id` when sane), the request's logger, and an access
 * log line: `requestId`, `method`, `path` (as requested, without the query: routers mounted
 * on a prefix rewrite `req.path` by the time it finishes), `orgId` once authenticated,
 * `status`, `ms`, as the request's logger would
 * write them, but without a child logger per request and without the redaction pass (none
 * of these fields can hold a secret; see withoutRedaction).
 */
export function requestContext(logger: Logger) {
  const accessLog = withoutRedaction(logger);
  return (req: Request, res: Response, next: NextFunction) => {
    const given = req.headers['x-request-id'];
    const requestId = typeof given === 'string' && acceptableRequestId.test(given) ? given : randomUUID();
    req.context = new Context(logger, requestId);
    res.setHeader('X-Request-Id', requestId);
    const started = process.hrtime.bigint();
    const { path } = req;
    res.on('finish', () => {
      if (!accessLog.isLevelEnabled('info')) return;
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      const { orgId } = req.context;
      accessLog.info({ requestId, method: req.method, path, orgId, status: res.statusCode, ms: Math.round(ms * 10) / 10 }, 'request');
    });
    next();
  };
}
