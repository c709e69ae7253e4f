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
 * command it sends a child of it. The body arrives on the socket's own async context, so the
 * request and response are bound to the span: the handlers that run from their events stay
 * in the trace. A caller's `traceparent` is not followed (the API is public; a trace starts here).
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
  res.once('finish', onFinish);
  res.once('close', onFinish);
  open.bind(req);
  open.bind(res);
  open.run(next);
}

/** Registered only while tracing is on: a process without OTEL_* pays nothing per request. */
export function useHttpTracing(app: Express): void {
  if (tracingOn()) app.use(traceRequests);
}
