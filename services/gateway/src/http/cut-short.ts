import type { Response } from 'express';

/**
 * Ends a response part way, so the client sees it incomplete (a body without its end), never
 * shorter data that looks whole. What was written goes out first: Node holds a turn's writes
 * on the corked socket until its next tick, and a failure in the same turn (a reply from the
 * in-process bus comes in a microtask) would otherwise close the connection before the status
 * line, a hang-up instead of the 200 begun. An empty write's callback comes once everything
 * written before it has been handed on (Node 26 no longer flushes on a bare uncork).
 */
export function cutShort(res: Response): void {
  const socket = res.socket;
  if (!socket || socket.destroyed || socket.writableEnded) {
    res.destroy();
    return;
  }
  socket.write('', () => res.destroy());
  socket.uncork();
}
