import type { Express } from 'express';

/** What express has registered, walked from the app's router stack: for tests that hold it against the route table and the OpenAPI document. */

/** A route express has registered: its method and its path as the document writes it, with the suffixes it takes. */
export interface RegisteredRoute {
  method: string;
  path: string;
  suffixes: string[];
}

function joinPath(prefix: string, path: string): string {
  const joined = `${prefix}/${path}`.replace(/\/+/g, '/');
  return joined.length > 1 ? joined.replace(/\/$/, '') : joined;
}

/** Express 5's template → the document's path and the suffixes it takes. */
function documentPath(template: string): { path: string; suffixes: string[] } {
  const suffixes = template.endsWith('{.:format}') ? ['.json', '.xml'] : template.endsWith('{.json}') ? ['.json'] : template.endsWith('{.xml}') ? ['.xml'] : [];
  const path = template
    .replace(/\{\.(:format|json|xml)\}$/, '')
    .replace(/:(\w+)/g, '{$1}')
    .replace(/\*(\w+)/g, '{$1}');
  return { path, suffixes };
}

export type Layer = { rawPath?: string | string[]; slash?: boolean; route?: { path: string | string[]; methods: Record<string, boolean> }; handle?: { stack?: Layer[] } };

/** Every route of a router, walking mounted routers (router 2's layers keep the path they were given as rawPath). */
export function routesOf(stack: Layer[], prefix = ''): RegisteredRoute[] {
  const routes: RegisteredRoute[] = [];
  for (const layer of stack) {
    const rawPaths = ([] as string[]).concat(layer.rawPath ?? '/');
    if (layer.route) {
      const verbs = Object.keys(layer.route.methods).filter((verb) => layer.route!.methods[verb]);
      for (const raw of ([] as string[]).concat(layer.route.path)) {
        const { path, suffixes } = documentPath(joinPath(prefix, raw));
        for (const verb of verbs) routes.push({ method: verb === '_all' ? 'all' : verb, path, suffixes });
      }
    } else if (layer.handle?.stack) {
      for (const raw of rawPaths) routes.push(...routesOf(layer.handle.stack, layer.slash ? prefix : joinPath(prefix, raw)));
    }
  }
  return routes;
}

/** Every route `app` has registered. */
export function registeredRoutes(app: Express): RegisteredRoute[] {
  return routesOf((app as unknown as { router: { stack: Layer[] } }).router.stack);
}
