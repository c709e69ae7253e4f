import { Router, type RequestHandler } from 'express';
import type { Suffixes } from '../openapi/operation';
import type { RouteArea, RouteDeclaration, RouteTableDeps } from './declaration';
import { gatedRouter } from '../http/path-gate';

/** Express 5's optional suffix for each declaration: `{.:format}` hands the handler `req.params.format`. */
const suffixTemplate: Record<Suffixes, string> = {
  '.json|.xml': '{.:format}',
  '.json': '{.json}',
  '.xml': '{.xml}',
  none: '',
};

/**
 * The area's routes as an express router, each route from its declaration: its method, its
 * path below the area's mount and its suffixes; `before` runs ahead of every handler
 * (authentication and the organization's scope, when the mount does not run them), then
 * the reader of the route's body when its limit has one of its own. An area with a body
 * reader of its own: the routes that stream their bodies, the reader, then the others.
 * A request whose path none of the area's routes can match skips the router whole.
 */
export function routerOf(area: RouteArea, deps: RouteTableDeps, before: RequestHandler[] = []): RequestHandler {
  return gatedRouter(routesOf(area, deps, before));
}

function routesOf(area: RouteArea, deps: RouteTableDeps, before: RequestHandler[]): Router {
  const router = Router({ mergeParams: true });
  const mount = (routes: RouteDeclaration[], checks: RequestHandler[]) => {
    for (const route of routes) {
      const reader = route.body === undefined || route.body === 'BODY_LIMIT_BYTES' || route.streamsBody ? [] : [deps.bodyReaders[route.body]];
      router[route.method](`${route.path}${suffixTemplate[route.suffixes]}`, ...checks, ...reader, route.handler(deps));
    }
  };
  if (!area.bodyReader) {
    mount(area.routes, before);
    return router;
  }
  mount(area.routes.filter((route) => route.streamsBody), before);
  router.all(area.bodyReader.paths, ...before, deps.bodyReaders[area.bodyReader.limit]);
  mount(area.routes.filter((route) => !route.streamsBody), []);
  return router;
}
