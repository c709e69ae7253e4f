import type { Express, NextFunction, Request, Response } from 'express';
import { openSpan, SpanKind, tracingOn, type OpenSpan } from '@formcast/tracing';
import { routeTemplateOf } from './http-metrics';

const span = Symbol('formcast.tracing.span');
type TracedResponse = Response & { [span]?: OpenSpan };

/** Ends the request's span once the answer is written, named by its route template (`POST /clients/:deviceRef/oneshots`). */
function onFinish(this: TracedResponse): void {
  const open = this[span];
  if (!open) return;
  this[span] = undefined;
  const { req } = this;
  const route = routeTemplateOf(req);
  open.end({
    name: `${req.method} ${route}`,
    attributes: { 'http.route': route, 'http.response.status_code': this.statusCode, ...(req.context?.orgId ? { 'formcast.org_id': req.context.orgId } : {}) },
    ...(this.statusCode >= 500 ? { error: new Error(`HTTP ${this.statusCode}`) } : {}),
  });
}

/**
 * A server span per request while tracing is on: the root of the request's trace, every
 * command it sends a child of it. The middleware after it run in the span; a body reader,
 * which goes on from the socket's events (outside it), goes back in with inRequestSpan.
 * A caller's `traceparent` is not followed (the API is public; a trace starts here).
 * Off: not registered at all.
 */
export function traceRequests(req: Request, res: TracedResponse, next: NextFunction): void {
  const open = openSpan(`${req.method}`, SpanKind.SERVER, { remote: undefined }, {
    'http.request.method': req.method,
    'url.path': req.path,
    'formcast.request_id': req.context?.requestId ?? '',
  });
  if (!open) {
    next();
    return;
  }
  res[span] = open;
  // `on`, not `once` (which wraps the listener anew for every request): onFinish ends the span once.
  res.on('finish', onFinish);
  res.on('close', onFinish);
  open.run(next);
}

/**
 * `next` for a middleware that calls it from the request's events (a body reader: the body
 * arrives on the socket's async context, not the request's): it runs the routes after it in
 * the request's span again. `next` itself while tracing is off. Binding the request and
 * response emitters instead costs a context switch on every event of both (~6 µs a push).
 */
export function inRequestSpan(res: Response, next: NextFunction): NextFunction {
  const open = (res as TracedResponse)[span];
  if (!open) return next;
  return (error?: unknown) => open.run(() => next(error));
}

/** Registered only while tracing is on: a process without OTEL_* pays nothing per request. */
export function useHttpTracing(app: Express): void {
  if (tracingOn()) app.use(traceRequests);
}
