import type { Request } from 'express';
import type { HttpMethod } from '../openapi/operation';
import { fullPath, type PathId, type RouteArea } from './declaration';

/** A template's literal part, as a regular expression. */
const literal = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** One path segment's id, without a `.json`/`.xml` suffix (any case, as the router takes paths). */
const idPattern = '([^/]+?)(?:\\.(?:json|xml))?';

interface Compiled {
  regex: RegExp;
  names: string[];
}

/** An express template (`/organizations/:orgId/groups/:groupId`) as a regex: the whole path, or a prefix of it. */
function compile(template: string, whole: boolean): Compiled {
  const names: string[] = [];
  const source = template
    .split(/(:\w+)/)
    .map((part) => {
      if (!part.startsWith(':')) return literal(part);
      names.push(part.slice(1));
      return idPattern;
    })
    .join('');
  return { regex: new RegExp(`^${source}${whole ? '(?:\\.(?:json|xml))?/?$' : '(?:/|$)'}`, 'i'), names };
}

/** A path's ids by name, decoded (an undecodable one as it is: its lookup refuses it). */
function idsOf(compiled: Compiled, match: RegExpExecArray): Record<string, string> {
  return Object.fromEntries(
    compiled.names.map((name, i) => {
      const part = match[i + 1]!;
      try {
        return [name, decodeURIComponent(part)];
      } catch {
        return [name, part];
      }
    }),
  );
}

interface Check {
  method?: HttpMethod | 'all';
  compiled: Compiled;
  ids: PathId[];
}

export interface PathIdMatch {
  ids: Record<string, string>;
  checks: PathId[];
}

/**
 * The table's routes with path ids, as matchers of a request's path: a route's own path
 * first (its method and whole path); else the most specific route's prefix up to its last
 * id, so a path below an id (a route that does not exist, or one outside the table) is
 * checked by that id too.
 */
export function pathIdMatcher(areas: RouteArea[]): (req: Request, path: string) => PathIdMatch | undefined {
  const whole: Check[] = [];
  const prefixes = new Map<string, Check>();
  for (const area of areas) {
    for (const route of area.routes) {
      if (!route.pathIds?.length) continue;
      const template = fullPath(area, route);
      whole.push({ method: route.method, compiled: compile(template, true), ids: route.pathIds });
      const lastId = Math.max(...route.pathIds.map((id) => template.indexOf(`:${id.name}`) + id.name.length + 1));
      const prefix = template.slice(0, lastId);
      if (!prefixes.has(prefix)) prefixes.set(prefix, { compiled: compile(prefix, false), ids: route.pathIds });
    }
  }
  const bySpecificity = [...prefixes.entries()].sort(([a], [b]) => b.split('/').length - a.split('/').length).map(([, check]) => check);
  return (req, path) => {
    const method = req.method.toLowerCase();
    for (const check of [...whole.filter((c) => c.method === method || c.method === 'all'), ...bySpecificity]) {
      const match = check.compiled.regex.exec(path);
      if (match) return { ids: idsOf(check.compiled, match), checks: check.ids };
    }
    return undefined;
  };
}
