import type { NextFunction, Request, Response } from 'express';
import { randomUUID } from 'node:crypto';
import { withRequestId, type Logger } from '@formcast/platform';

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

/** A request id (the caller's `X-Request-Id` when sane), a child logger, and an access log line. */
export function requestContext(logger: Logger) {
  return (req: Request, res: Response, next: NextFunction) => {
    const given = req.get('x-request-id');
    const requestId = given && acceptableRequestId.test(given) ? given : randomUUID();
    const log = withRequestId(logger, requestId);
    req.context = { requestId, logger: log };
    res.setHeader('X-Request-Id', requestId);
    const started = process.hrtime.bigint();
    res.on('finish', () => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      log.info({ method: req.method, path: req.path, status: res.statusCode, ms: Math.round(ms * 10) / 10 }, 'request');
    });
    next();
  };
}
