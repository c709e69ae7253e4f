import type { Request, RequestHandler } from 'express';
import type { DeadLetterAdmin } from '../routes/admin-dead-letters';
import type { Auth, HttpMethod, OperationSpec, Suffixes } from '../openapi/operation';
import type { FetchWithAttachment, SendCommand } from '../http/send-command';

/** Asks a service a question (a lookup by id) as the request's organization. */
export type Lookup = <T = unknown>(type: string, payload: unknown) => Promise<T>;

/**
 * One id of the path and how it is resolved: by its own lookup (never by listing a
 * collection), rejecting with AppError('not_found') when it does not exist for the request's
 * organization (or device). `ids` holds every id of the path, by name, decoded.
 */
export interface PathId {
  name: string;
  resolve: (lookup: Lookup, ids: Record<string, string>, req: Request) => Promise<unknown>;
}

/** The setting that bounds the route's body (the parser that reads it follows from it: http/limited-body.ts). */
export type BodyLimit = 'BODY_LIMIT_BYTES' | 'RESOURCE_MAX_BYTES' | 'SUBMISSION_IMAGE_MAX_BYTES';

/**
 * The hostile battery's request on this route (test/support/hostile-inputs.ts): the path's
 * suffix and query, and the battery's plausible bodies by name (its `bodies`). A route with no
 * body names none.
 */
export interface HostileCase {
  /** The method to send, on a route that takes any (`all`). */
  method?: HttpMethod;
  suffix?: '.json' | '.xml';
  query?: string;
  /** A concrete path instead of the route's template (a dead letter's queue and id). */
  path?: string;
  json?: string;
  xml?: string;
}

/** What a route's handler may use. */
export interface RouteTableDeps {
  send: SendCommand;
  fetchWithAttachment: FetchWithAttachment;
  deadLetters: DeadLetterAdmin;
  /** RESOURCE_MAX_BYTES: the largest resource file, once decoded. */
  resourceMaxBytes: number;
  /**
   * The body readers of the limits above BODY_LIMIT_BYTES (http/limited-body.ts), mounted
   * before the global parser: a route whose body has such a limit reads it with its reader,
   * after authentication (or streams it itself: `streamsBody`).
   */
  bodyReaders: Record<Exclude<BodyLimit, 'BODY_LIMIT_BYTES'>, RequestHandler>;
}

/** One route, declared once: express, the checks before its body, OpenAPI and the battery come from it. */
export interface RouteDeclaration {
  /** `all`: every method, each documented with the same operation. */
  method: HttpMethod | 'all';
  /** Express 5's template below the area's mount, without the suffix (`/groups/:groupId`, `/users/*rest`). */
  path: string;
  /** The format suffixes the path takes (decided before the handler runs: http/format-suffix.ts). */
  suffixes: Suffixes;
  /** The path's ids a service resolves, checked in this order before a refused body is answered. */
  pathIds?: PathId[];
  /** The body's limit; absent: the route takes no body. BODY_LIMIT_BYTES: read by the global parser (http/limited-body.ts's readBodyUpTo). */
  body?: BodyLimit;
  /** The handler reads the body itself, streamed, up to its limit (a resource's Base64 file), rather than its reader. */
  streamsBody?: true;
  /** The OpenAPI operation (its auth and suffixes are the route's). */
  openapi: Omit<OperationSpec, 'auth' | 'suffixes'>;
  /** The battery's requests on this route: at least one. */
  hostile: HostileCase[];
  handler: (deps: RouteTableDeps) => RequestHandler;
}

/** Routes mounted together: under one path, with one authentication, in one OpenAPI tag. */
export interface RouteArea {
  /** The area's name (a file of route-table/). */
  name: string;
  /** The express mount (`/organizations/:orgId`, or `` for full paths). */
  mount: string;
  auth: Auth;
  /** The OpenAPI tag its operations are listed under (openapi/document.ts's areas). */
  tag: string;
  routes: RouteDeclaration[];
  /**
   * Every other body on these paths below the mount (any method, any route or none) is read
   * whole by the reader of `limit`, after the mount's checks (authentication), rather than by
   * the global parser's smaller limit: the routes that stream their bodies come before it,
   * and the others after it rely on it for their authentication (resources).
   */
  bodyReader?: { limit: Exclude<BodyLimit, 'BODY_LIMIT_BYTES'>; paths: string[] };
}

/** The route's path from the root, in express's syntax, without the suffix. */
export function fullPath(area: RouteArea, route: RouteDeclaration): string {
  const joined = `${area.mount}${route.path}`;
  return joined.length > 1 ? joined.replace(/\/$/, '') : '/';
}
