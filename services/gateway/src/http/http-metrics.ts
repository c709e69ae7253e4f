import type { Express, NextFunction, Request, Response } from 'express';
import { metricsOn, recordHttpRequest, renderMetrics } from '@formcast/metrics';
import { AppError } from '@formcast/platform';
import { requireAdminToken } from './authenticate';

export interface HttpMetricsOptions {
  /** Count requests and time them (default: unless METRICS_ENABLED is false). */
  record?: boolean;
  /** Serve `/metrics` on this app behind the admin token (embedded mode; the gateway alone serves it on METRICS_PORT). */
  serveWithAdminToken?: boolean;
}

/** The label of a request no route answered (refused by a mount's authentication, or 404). */
export const unmatchedRoute = 'unmatched';

const startedAt = Symbol('formcast.metrics.startedAt');
type TimedResponse = Response & { [startedAt]?: number };

/** Records the request once its answer is written: one listener shared by every request, no closure each. */
function onFinish(this: TimedResponse): void {
  const started = this[startedAt];
  if (started !== undefined) recordHttpRequest(routeTemplateOf(this.req), this.req.method, this.statusCode, (performance.now() - started) / 1000);
}

function recordRequests(_req: Request, res: TimedResponse, next: NextFunction): void {
  res[startedAt] = performance.now();
  res.on('finish', onFinish); // emitted once; `once` would wrap the listener anew for every request
  next();
}

async function serveMetrics(_req: Request, res: Response): Promise<void> {
  if (!metricsOn()) throw new AppError('not_found', 'Metrics are off (METRICS_ENABLED=false)');
  const { contentType, body } = await renderMetrics();
  res.setHeader('cache-control', 'no-store');
  res.type(contentType).send(body);
}

/** Request counts and latencies by route template, and `/metrics` behind the admin token where asked. */
export function useHttpMetrics(app: Express, adminToken: string, options: HttpMetricsOptions = {}): void {
  if (options.record ?? metricsOn()) app.use(recordRequests);
  if (options.serveWithAdminToken) app.get('/metrics', requireAdminToken(adminToken), serveMetrics);
}

// ---------------------------------------------------------------------------------------
// Route templates: express knows the route a request matched (`req.route`), but only its own
// part of the path; the mount paths above it are in the router tree. The tree is walked once
// per app, giving each route its whole template.

interface RouteLike {
  path: unknown;
}

interface LayerLike {
  route?: RouteLike;
  handle?: { stack?: LayerLike[] };
  rawPath?: unknown;
  slash?: boolean;
}

const templatesByApp = new WeakMap<object, Map<RouteLike, string>>();
/** Routes looked for after a rebuild and not found: not looked for again. */
const notInTree = new WeakSet<RouteLike>();

/** `/clients/:deviceRef/oneshots` for `/clients/:deviceRef` + `/oneshots{.:format}`: the optional format suffix left out. */
function template(path: string): string {
  return path.replace(/\{\.[^{}]*\}$/, '') || '/';
}

function collectTemplates(stack: LayerLike[], prefix: string, into: Map<RouteLike, string>): void {
  for (const layer of stack) {
    if (layer.route) {
      into.set(layer.route, template(prefix + String(layer.route.path)));
    } else if (Array.isArray(layer.handle?.stack)) {
      const own = layer.slash || typeof layer.rawPath !== 'string' || layer.rawPath === '/' ? '' : layer.rawPath;
      collectTemplates(layer.handle.stack, prefix + own, into);
    }
  }
}

function routeTemplates(app: { router: unknown }): Map<RouteLike, string> {
  const into = new Map<RouteLike, string>();
  collectTemplates((app.router as unknown as { stack: LayerLike[] }).stack, '', into);
  return into;
}

/** The template of the route that answered `req`, or `unmatched`. */
export function routeTemplateOf(req: Request): string {
  const route = req.route as RouteLike | undefined;
  if (!route) return unmatchedRoute;
  let templates = templatesByApp.get(req.app);
  if (!templates?.has(route) && !notInTree.has(route)) {
    templates = routeTemplates(req.app);
    templatesByApp.set(req.app, templates);
    if (!templates.has(route)) notInTree.add(route);
  }
  return templates?.get(route) ?? unmatchedRoute;
}
