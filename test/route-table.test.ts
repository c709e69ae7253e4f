import type { Request } from 'express';
import { InProcessBus } from '@formcast/bus';
import { createGatewayApp, fullPath, routeTable } from '@formcast/gateway';
import { createLogger } from '@formcast/platform';
import { pathIdMatcher } from '../services/gateway/src/route-table/path-matcher';
import { registeredRoutes, type RegisteredRoute } from './support/express-routes';

/**
 * Issue 26: the route table (services/gateway/src/route-table/) is the one place a route is
 * declared. Held against express's router stack: every table route is mounted once, with its
 * suffixes; every express route comes from the table, but the few that are not the API; each
 * route's declared authentication is the one the gateway applies.
 */

/** Routes that are not the product's API (no declaration: no OpenAPI operation, no battery row). */
const notApi: RegExp[] = [/^get \/(healthz|readyz|metrics|openapi\.json|docs|docs\/.+)$/, /^\w+ \/console(\/.*)?$/];

const key = (route: { method: string; path: string }) => `${route.method} ${route.path}`;
const openApiPath = (template: string) => template.replace(/[:*](\w+)/g, '{$1}');

describe('The route table', () => {
  let registered: RegisteredRoute[];

  beforeAll(async () => {
    const logger = createLogger({ level: 'silent' });
    const bus = new InProcessBus({ logger });
    registered = registeredRoutes(
      createGatewayApp({ bus, logger, adminToken: 'admin-token-for-the-route-table', commandTimeoutMs: 1000, bodyLimitBytes: 1_000_000, metrics: { serveWithAdminToken: true } }),
    );
    await bus.close();
  });

  const declared = routeTable.flatMap((area) => area.routes.map((route) => ({ area, route, method: route.method, path: openApiPath(fullPath(area, route)) })));

  it('mounts every declared route exactly once, with the suffixes it declares', () => {
    const wrong = declared.flatMap(({ method, path, route }) => {
      const mounted = registered.filter((r) => r.method === method && r.path === path);
      const suffixes = route.suffixes === 'none' ? '' : route.suffixes;
      if (mounted.length !== 1) return [`${method} ${path}: mounted ${mounted.length} times`];
      return mounted[0]!.suffixes.join('|') === suffixes ? [] : [`${method} ${path}: takes ${mounted[0]!.suffixes.join('|') || 'none'}, declares ${route.suffixes}`];
    });
    expect(wrong).toEqual([]);
    expect(declared.length).toBeGreaterThan(30);
  });

  /** The body readers the table's areas declare (resources: any other body on their paths, read up to their limit). */
  const readers = routeTable.flatMap((area) =>
    (area.bodyReader?.paths ?? []).map((path) => `all ${openApiPath(`${area.mount}${path}`.replace(/\{\.(:format|json|xml)\}$/, ''))}`),
  );

  it('declares every route express has, but the few that are not the API and the body readers the table declares', () => {
    const fromTable = new Set([...declared.map(key), ...readers]);
    const elsewhere = registered.map(key).filter((route) => !fromTable.has(route) && !notApi.some((pattern) => pattern.test(route)));
    expect(elsewhere).toEqual([]);
    expect(readers.filter((reader) => !registered.some((route) => key(route) === reader))).toEqual([]);
  });

  it("names only its path's own ids in each route's path ids, and gives the battery a case on every route", () => {
    const wrong = declared.flatMap(({ area, route, method, path }) => [
      ...(route.pathIds ?? []).filter((id) => !fullPath(area, route).includes(`:${id.name}`)).map((id) => `${method} ${path}: no :${id.name} in the path`),
      ...(route.hostile.length === 0 ? [`${method} ${path}: no battery case`] : []),
      ...(route.body === undefined && route.hostile.some((c) => c.json || c.xml) ? [`${method} ${path}: a battery body on a route that takes none`] : []),
    ]);
    expect(wrong).toEqual([]);
  });
});

describe("The route table's path ids, as a refused body's request finds them (path-before-body.ts)", () => {
  const match = pathIdMatcher(routeTable);
  const found = (method: string, path: string) => {
    const result = match({ method } as Request, path);
    return result && { ids: result.ids, checks: result.checks.map((check) => check.name) };
  };

  it("takes the route's own path and method first: destroy_all is no dispatch id", () => {
    expect(found('POST', '/api/v3/devices/Android_1/dispatches/destroy_all.json')).toEqual({ ids: { deviceRef: 'Android_1' }, checks: ['deviceRef'] });
    expect(found('PATCH', '/api/v3/devices/Android_1/dispatches/5.json')).toEqual({ ids: { deviceRef: 'Android_1', dispatchId: '5' }, checks: ['deviceRef', 'dispatchId'] });
  });

  it('checks a path below an id by that id, whatever comes after it (no route, or another method)', () => {
    expect(found('POST', '/clients/Android_1/oneshots/5/anything')).toEqual({ ids: { deviceRef: 'Android_1', oneshotId: '5' }, checks: ['deviceRef', 'oneshotId'] });
    expect(found('POST', '/api/v3/devices/Android_1/submission_images/x/elsewhere')?.checks).toEqual(['deviceRef']);
    expect(found('PUT', '/organizations/1/groups/7.xml')).toEqual({ ids: { orgId: '1', groupId: '7' }, checks: ['groupId'] });
  });

  it('decodes the ids, and finds none on a path without declared ids', () => {
    expect(found('GET', '/clients/Android%201/badge')?.ids).toEqual({ deviceRef: 'Android 1' });
    expect(found('DELETE', '/api/v3/dispatches/5.json')).toBeUndefined();
    expect(found('POST', '/admin/organizations/1/tokens')).toBeUndefined();
  });
});

describe("The route table's authentication, as the gateway applies it", () => {
  it('answers 401 without credentials on every route its area declares authenticated, and never on one declared open', async () => {
    const logger = createLogger({ level: 'silent' });
    const bus = new InProcessBus({ logger });
    const app = createGatewayApp({ bus, logger, adminToken: 'admin-token-for-the-route-table', commandTimeoutMs: 1000, bodyLimitBytes: 1_000_000 });
    const server = app.listen(0);
    try {
      await new Promise((resolve) => server.once('listening', resolve));
      const { port } = server.address() as { port: number };
      const wrong: string[] = [];
      for (const area of routeTable) {
        for (const route of area.routes) {
          const path = fullPath(area, route).replace(/:(\w+)/g, (_m, name: string) => (name === 'deviceRef' ? 'Android_1' : '1')).replace(/\*\w+/, 'x');
          const method = route.method === 'all' ? 'GET' : route.method.toUpperCase();
          const res = await fetch(`http://127.0.0.1:${port}${path}`, { method, signal: AbortSignal.timeout(5000) });
          await res.arrayBuffer();
          if ((res.status === 401) !== (area.auth !== 'none')) wrong.push(`${method} ${path} (${area.auth}): ${res.status}`);
        }
      }
      expect(wrong).toEqual([]);
    } finally {
      server.close();
      await bus.close();
    }
  });
});
