import type { ErrorRequestHandler, Response } from 'express';
import { isAppError } from '@formcast/platform';

/**
 * A connection whose request was refused for load (429 past a rate limit, 503 shed) is read
 * again only `pauseMs` after its answer was written. The answer goes at once, with its
 * `Retry-After`; what waits is the connection's next request, in the kernel's buffer, unread.
 * A flood's client that retries at once, ignoring `Retry-After`, on hundreds of keep-alive
 * connections then costs a few refusals a second each instead of one every turn of the
 * event loop, and those turns stay short for everyone else's requests (issue 25: one turn
 * read a flood's 400 connections, ~40 ms, and another organization's push waited behind it).
 * A client that honours `Retry-After` never notices. The pause starts once the answer is
 * written and the request's body read to its end (Node reads and drops a refused one).
 */
export function pauseConnectionAfterAnswer(res: Response, pauseMs: number): void {
  if (pauseMs <= 0) return;
  const { req } = res;
  const socket = req.socket;
  const pause = () => {
    if (socket.destroyed) return;
    socket.pause();
    setTimeout(() => {
      if (!socket.destroyed) socket.resume();
    }, pauseMs).unref();
  };
  res.once('finish', () => {
    if (req.complete) pause();
    else req.once('end', pause);
  });
}

/** Before the error handler: a 429 or 503 refusal pauses its connection (pauseConnectionAfterAnswer). */
export function pauseRefusedConnections(pauseMs: number): ErrorRequestHandler {
  return (error, _req, res, next) => {
    if (isAppError(error) && (error.code === 'rate_limited' || error.code === 'unavailable')) pauseConnectionAfterAnswer(res, pauseMs);
    next(error);
  };
}
