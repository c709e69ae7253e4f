import type { HostileCase, PathId, RouteArea, RouteDeclaration } from './declaration';
import type { Auth, Suffixes } from '../openapi/operation';
import { pathIdOfParameter, resolvedWith } from './path-ids';

/**
 * A route as written in its area's file: what the declaration restates of its path and area
 * is derived (declareArea): `suffixes` the area's (else JSON or XML), `pathIds` from the path's parameters,
 * `body` BODY_LIMIT_BYTES where the operation takes a body, `hostile` one case with the
 * route's first suffix, `openapi.errors` [400] with a body and [404] on a path with
 * parameters. A route that differs says so.
 */
export type RouteSpec = Omit<RouteDeclaration, 'suffixes' | 'hostile'> & { suffixes?: Suffixes; hostile?: HostileCase[] };

/**
 * An area as written: its routes' default suffixes, the lookups of its parameters that differ
 * from the table's (the device's own oneshot below /device), and routes that may leave out
 * what is derived.
 */
export type AreaSpec = Omit<RouteArea, 'routes' | 'auth'> & { auth?: Auth; suffixes?: Suffixes; pathIdOf?: Record<string, PathId>; routes: RouteSpec[] };

/** What most areas are: behind the organization's API token, in JSON or XML. An area says what differs. */
const tableDefaults = { auth: 'apiToken', suffixes: '.json|.xml' } as const;

const firstSuffix: Record<Suffixes, HostileCase> = { '.json|.xml': { suffix: '.json' }, '.json': { suffix: '.json' }, '.xml': { suffix: '.xml' }, none: {} };

/** A body may be refused (400), a path's id may name nothing (404): what a route says when it says nothing else. */
function defaultErrors(body: RouteDeclaration['body'], template: string): { errors?: number[] } {
  const errors = [...(body ? [400] : []), ...(template.includes(':') ? [404] : [])];
  return errors.length > 0 ? { errors } : {};
}

/** The path's ids, in its order, each by the lookup of its parameter (path-ids.ts's pathIdOfParameter). */
function derivedPathIds(template: string, lookups: Record<string, PathId>): RouteDeclaration['pathIds'] {
  const parameters = [...template.matchAll(/:(\w+)/g)].map((match) => match[1]!);
  const ids = parameters.filter((name) => lookups[name] && !parameters.includes(resolvedWith[name] ?? '')).map((name) => lookups[name]!);
  return ids.length > 0 ? ids : undefined;
}

export function declareRoute(area: Pick<AreaSpec, 'mount' | 'suffixes' | 'pathIdOf'>, spec: RouteSpec): RouteDeclaration {
  const { suffixes = area.suffixes ?? tableDefaults.suffixes, hostile, openapi, pathIds: _explicit, body = openapi.body ? 'BODY_LIMIT_BYTES' : undefined, ...rest } = spec;
  const template = `${area.mount}${spec.path}`;
  const pathIds = 'pathIds' in spec ? spec.pathIds : derivedPathIds(template, { ...pathIdOfParameter, ...area.pathIdOf });
  const errors = 'errors' in openapi ? {} : defaultErrors(body, template);
  return {
    ...rest,
    suffixes,
    ...(body ? { body } : {}),
    ...(pathIds?.length ? { pathIds } : {}),
    openapi: { ...openapi, ...errors },
    hostile: hostile ?? [{ ...firstSuffix[suffixes] }],
  };
}

/** The area with each route's defaults derived (declareRoute). */
export function declareArea(spec: AreaSpec): RouteArea {
  const { suffixes: _suffixes, pathIdOf: _pathIdOf, routes, auth = tableDefaults.auth, ...area } = spec;
  return { ...area, auth, routes: routes.map((route) => declareRoute(spec, route)) };
}
