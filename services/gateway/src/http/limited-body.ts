import type { IncomingMessage } from 'node:http';
import express, { type NextFunction, type Request, type Response } from 'express';
import { AppError } from '@formcast/platform';
import { acceptBody, drainRefusedBody } from './body-watch';
import { inRequestSpan } from './http-tracing';

/**
 * Reads the request body into `req.body` (a Buffer) up to `limitBytes`, for routes that
 * take bodies larger than the global parser allows. An oversized body is refused with
 * AppError('too_large') before it is buffered: from `Content-Length` before reading
 * anything (nor asking for it, with `Expect: 100-continue`) when the client gives one, else
 * by counting while it streams in, stopping at the limit. The rest is then dropped within
 * drainRefusedBody's bounds, so a client sending gigabytes is not read to the end, yet can
 * read the answer. Only identity-encoded bodies are taken.
 */
export function readLimitedBody(limitBytes: number, describeLimit: (limitBytes: number) => string) {
  const tooLarge = (req: Request) => {
    stopReadingBody(req);
    return new AppError('too_large', `The request body is too large: ${describeLimit(limitBytes)}`);
  };

  return (req: Request, res: Response, next: NextFunction): void => {
    if (req.readableEnded || Buffer.isBuffer(req.body)) {
      next();
      return;
    }
    const declared = req.headers['content-length'];
    const chunked = req.headers['transfer-encoding'] !== undefined;
    if (declared === undefined && !chunked) {
      next(); // no body
      return;
    }
    const encoding = (req.headers['content-encoding'] ?? 'identity').toLowerCase();
    if (encoding !== 'identity') {
      next(new AppError('unsupported_media_type', `Content-Encoding ${encoding} is not accepted here: send the body uncompressed`));
      return;
    }
    if (declared !== undefined && Number(declared) > limitBytes) {
      next(tooLarge(req));
      return;
    }

    acceptBody(req);
    const routes = inRequestSpan(res, next);
    const chunks: Buffer[] = [];
    let received = 0;
    let settled = false;
    const settle = (error?: AppError) => {
      if (settled) return;
      settled = true;
      stopListening();
      if (error) {
        routes(error);
        return;
      }
      req.body = Buffer.concat(chunks, received);
      routes();
    };
    const onData = (chunk: Buffer) => {
      received += chunk.length;
      if (received > limitBytes) {
        chunks.length = 0;
        settle(tooLarge(req));
        return;
      }
      chunks.push(chunk);
    };
    const stopListening = listenToBody(req, {
      onData,
      onEnd: () => settle(),
      onError: () => settle(new AppError('invalid', 'The request body could not be read')),
    });
  };
}

/**
 * Hands the body's chunks to `onData` until `onEnd`; a read error or an aborted request goes
 * to `onError`. Returns what stops listening.
 */
export function listenToBody(
  req: IncomingMessage,
  { onData, onEnd, onError }: { onData: (chunk: Buffer) => void; onEnd: () => void; onError: () => void },
): () => void {
  req.on('data', onData);
  req.on('end', onEnd);
  req.on('error', onError);
  req.on('aborted', onError);
  return () => {
    req.off('data', onData);
    req.off('end', onEnd);
    req.off('error', onError);
    req.off('aborted', onError);
  };
}

/** For a body refused before its end: dropped within drainRefusedBody's bounds. */
export function stopReadingBody(req: IncomingMessage): void {
  drainRefusedBody(req);
}

/**
 * A refusal of the body that is given only when a route reads it (`req.body`), so the checks
 * before it (authentication, the organization, path ids the service resolves) answer first,
 * whatever is wrong with the body: the one order of checks (docs/architecture.md). A route
 * that takes no body never reads it, and the rest is dropped once it has answered.
 */
function refuseBodyWhenRead(req: Request, error: unknown): void {
  Object.defineProperty(req, 'body', {
    configurable: true,
    enumerable: true,
    get() {
      throw error;
    },
  });
}

/**
 * The gateway's body reader for every route but resources: express.raw (which also inflates
 * compressed bodies) up to `limitBytes`. A Content-Length over the limit is refused without
 * reading the body or asking for it; any refusal waits for the route to read the body
 * (refuseBodyWhenRead).
 */
export function readBodyUpTo(limitBytes: number) {
  const raw = express.raw({ type: () => true, limit: limitBytes });
  return (req: Request, res: Response, next: NextFunction): void => {
    if (Number(req.headers['content-length']) > limitBytes) {
      refuseBodyWhenRead(req, new AppError('too_large', `The request body is too large: at most ${limitBytes} bytes are accepted`));
      next();
      return;
    }
    acceptBody(req);
    // raw-body calls back in the async context it was called in (AsyncResource): in the request's span.
    raw(req, res, (error?: unknown) => {
      if (error !== undefined) refuseBodyWhenRead(req, error);
      next();
    });
  };
}
