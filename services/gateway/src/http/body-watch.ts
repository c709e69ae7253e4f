import type { IncomingMessage, ServerResponse } from 'node:http';
import type { NextFunction, Request, Response } from 'express';
import { bodyTimeoutMs, defaultHttpTimeouts, type HttpTimeouts } from './http-timeouts';

/** What the gateway holds about a request's body while it may still be arriving. */
interface BodyWatch {
  res: ServerResponse;
  timeouts: HttpTimeouts;
  /** The largest body the route takes: sets the deadline of a chunked body and the drain's byte bound. */
  limitBytes: number;
  deadline?: NodeJS.Timeout;
  /** Samples the body's arrival for the sliding-window rate check (see watchRate). */
  rateCheck?: NodeJS.Timeout;
  /** Set once the body is being dropped, or the request was answered 408: no deadline any more. */
  settled: boolean;
}

const watches = new WeakMap<IncomingMessage, BodyWatch>();
/** Requests with `Expect: 100-continue` whose body nobody asked for yet. */
const awaitingContinue = new WeakMap<IncomingMessage, ServerResponse>();

function hasBody(req: IncomingMessage): boolean {
  const declared = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (declared !== undefined && declared !== '0');
}

/** The body's size as far as the route allows it: its Content-Length, else the route's limit. */
function expectedBytes(req: IncomingMessage, limitBytes: number): number {
  const declared = Number(req.headers['content-length']);
  if (req.headers['transfer-encoding'] !== undefined || !Number.isFinite(declared)) return limitBytes;
  return Math.min(declared, limitBytes);
}

function armDeadline(req: IncomingMessage, watch: BodyWatch): void {
  clearTimeout(watch.deadline);
  const ms = bodyTimeoutMs(expectedBytes(req, watch.limitBytes), watch.timeouts);
  watch.deadline = setTimeout(() => bodyTooSlow(req, watch, ms), ms);
  watch.deadline.unref();
}

/**
 * The body's rate over a sliding window of REQUEST_BODY_TIMEOUT_MS: once the first window has
 * passed, every window must bring REQUEST_BODY_MIN_BYTES_PER_SECOND × its length (or all that
 * is left of the body, if less), else 408. The overall deadline alone let a client sending a
 * byte every few seconds hold a connection for the whole time a large declared body allows
 * (16 minutes for a 50 MB file); now it is cut after one window. Bytes are read off the
 * socket's counter (a listener on the request would start reading it); a body not yet asked
 * for (`Expect: 100-continue`) is not judged.
 */
function watchRate(req: IncomingMessage, watch: BodyWatch): void {
  clearInterval(watch.rateCheck);
  const windowMs = watch.timeouts.bodyBaseMs;
  const socket = req.socket;
  const startedAt = performance.now();
  const startBytes = socket.bytesRead;
  const expected = expectedBytes(req, watch.limitBytes);
  const samples: Array<{ at: number; bytes: number }> = [{ at: startedAt, bytes: startBytes }];
  const stepMs = Math.max(50, Math.floor(windowMs / 4));
  // The overall deadline answers a body that is late for it; the window judges the rest.
  const deadlineAt = startedAt + bodyTimeoutMs(expected, watch.timeouts);
  watch.rateCheck = setInterval(() => {
    if (req.complete || watch.settled) return clearInterval(watch.rateCheck);
    const now = performance.now();
    const bytes = socket.bytesRead;
    samples.push({ at: now, bytes });
    if (awaitingContinue.has(req)) {
      samples.splice(0, samples.length - 1);
      return;
    }
    // The oldest sample at least a window old, the others dropped.
    while (samples.length > 1 && now - samples[1]!.at >= windowMs) samples.shift();
    const from = samples[0]!;
    if (now - from.at < windowMs || now + 2 * stepMs >= deadlineAt) return;
    const left = Math.max(0, expected - (from.bytes - startBytes));
    const needed = Math.min(left, (watch.timeouts.bodyMinBytesPerSecond * (now - from.at)) / 1000);
    if (bytes - from.bytes < needed) {
      clearInterval(watch.rateCheck);
      bodyTooSlow(req, watch, now - startedAt, `arrived slower than ${watch.timeouts.bodyMinBytesPerSecond} bytes a second over ${Math.ceil(windowMs / 1000)} s`);
    }
  }, stepMs);
  watch.rateCheck.unref();
}

/**
 * 408 and the connection closed (Node closes it after an answer with `Connection: close`);
 * when an answer is already on its way, the connection is only cut. Whoever was reading the
 * body sees it aborted and finds the answer sent.
 */
function bodyTooSlow(req: IncomingMessage, watch: BodyWatch, ms: number, why?: string): void {
  if (req.complete || watch.settled) return;
  const { res } = watch;
  watch.settled = true;
  if (res.headersSent) {
    req.socket.destroy();
    return;
  }
  const message = why ? `The request body ${why}` : `The request body did not arrive within ${Math.ceil(ms / 1000)} s`;
  const body = JSON.stringify({ status: '408', error: 'Request Timeout', message });
  res.writeHead(408, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body), connection: 'close' });
  res.end(body);
}

/**
 * The first middleware: a request with a body must deliver it within REQUEST_BODY_TIMEOUT_MS
 * plus its size (Content-Length, or `limitBytes` when chunked) at the minimum rate. Node's
 * own requestTimeout is one value for every route, so it cannot grow with a route's limit
 * (a resource upload may take minutes, a JSON body not); it stays off and this takes its
 * place. A request answered before its body ended (a refusal, a 401 without reading) has
 * the rest dropped, within drainRefusedBody's bounds.
 */
export function watchRequestBodies(timeouts: HttpTimeouts, limitBytes: number) {
  return (req: Request, res: Response, next: NextFunction): void => {
    if (!req.complete && hasBody(req)) {
      const watch: BodyWatch = { res, timeouts, limitBytes, settled: false };
      watches.set(req, watch);
      armDeadline(req, watch);
      watchRate(req, watch);
      // Before Node's own 'finish' listener, which would otherwise dump the body uncounted.
      res.prependOnceListener('finish', () => {
        if (req.complete) clearTimeout(watch.deadline);
        else drainRefusedBody(req);
      });
      res.once('close', () => {
        clearTimeout(watch.deadline);
        clearInterval(watch.rateCheck);
      });
    }
    next();
  };
}

/** A route taking larger bodies than the gateway's default (resources): its deadline and drain follow its own limit. */
export function permitBody(req: IncomingMessage, limitBytes: number): void {
  const watch = watches.get(req);
  if (!watch || watch.settled) return;
  watch.limitBytes = limitBytes;
  armDeadline(req, watch);
  watchRate(req, watch);
}

/**
 * For a server's `checkContinue` event: the request goes on to the app without `100
 * Continue`; a body reader asks for the body (acceptBody) when it wants it. An answer given
 * before that (401, 404, 413 from Content-Length) reaches the client before it sends the
 * body, and Node closes the connection after it (it does so for an expectation it did not
 * meet), since the client may or may not send the body then.
 */
export function holdContinue(req: IncomingMessage, res: ServerResponse): void {
  awaitingContinue.set(req, res);
}

/** Asks the client for the body, if it waits to be asked (`Expect: 100-continue`). */
export function acceptBody(req: IncomingMessage): void {
  const res = awaitingContinue.get(req);
  if (res === undefined) return;
  awaitingContinue.delete(req);
  if (!res.headersSent) res.writeContinue();
}

/**
 * The rest of a body refused before its end is read and dropped until it ends, or until
 * REFUSED_BODY_DRAIN_MS has passed, whatever its size (nginx's `lingering_time`: by time
 * only); then the connection is cut. A client that writes its whole body before reading
 * (Python's urllib, Ruby's Net::HTTP, most SDKs) reads the answer however large the body:
 * closing with unread data would make TCP reset the connection and the client fail on its
 * write (EPIPE) instead. Dropping costs a read and nothing kept, so the time bound is the
 * only one needed. The answer goes without `Connection: close` (with it, Node would close at
 * once), so a body that ends within the bound leaves the connection usable. A body never
 * asked for (`Expect: 100-continue`) is not waited for: Node closes that connection after
 * the answer.
 */
export function drainRefusedBody(req: IncomingMessage): void {
  const watch = watches.get(req);
  if (watch?.settled || awaitingContinue.has(req)) return;
  if (watch) {
    watch.settled = true;
    clearTimeout(watch.deadline);
    clearInterval(watch.rateCheck);
  }
  const maxMs = (watch?.timeouts ?? defaultHttpTimeouts).refusedBodyDrainMs;
  const socket = req.socket;
  req.resume();
  const cutoff = setTimeout(() => socket.destroy(), maxMs);
  cutoff.unref();
  const stopCutoff = () => clearTimeout(cutoff);
  req.once('end', stopCutoff);
  socket.once('close', stopCutoff);
}
