import type { RequestHandler, Router } from 'express';

/** Express 5's path syntax: where a template stops being literal text. */
const firstSpecial = /[:*{}()[\]?+!\\]/;

/** The literal text a request path must start with to match `template` (`/groups/:groupId{.:format}` → `/groups/`). */
export function literalPrefix(template: string): string {
  const at = template.search(firstSpecial);
  return at < 0 ? template : template.slice(0, at);
}

const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

interface RouteLayer {
  route?: { path: string | string[] };
}

/**
 * `router` (routes only) run only for request paths one of its routes could match; every
 * other request goes on at once, rather than through each of the router's routes. Express
 * matches paths case-insensitively and without decoding them, and so does the gate: it
 * passes every path a route can match, and the router decides as before. A router with
 * anything but routes (a `use`) is returned as it is. The gate carries the router's `stack`,
 * so what walks the app's routers (http-metrics.ts's route templates) still finds its routes.
 */
export function gatedRouter(router: Router): RequestHandler {
  const templates: string[] = [];
  for (const layer of router.stack as RouteLayer[]) {
    if (!layer.route) return router;
    templates.push(...[layer.route.path].flat());
  }
  const prefixes = [...new Set(templates.map(literalPrefix))];
  const could = new RegExp(`^(?:${prefixes.map(escaped).join('|')})`, 'i');
  const gate: RequestHandler = (req, res, next) => (could.test(req.path) ? router(req, res, next) : next());
  return Object.assign(gate, { stack: router.stack });
}
