import type { Answer, HttpMethod } from '../openapi/operation';
import type { HostileCase } from './declaration';
import type { RouteSpec } from './declare';

/**
 * The kinds of route most of the table is: a read, a delete, a revocation, another action
 * without a body, a write. Each
 * takes what differs from route to route, in the order a reader looks for it (method, path,
 * summary or battery cases, handler), and fills in what its kind says.
 */

/** The 200 answers of a delete and of a revocation that answer no body. */
export const deletedAnswer = { 200: { description: 'Deleted (empty body)' } };
export const revokedAnswer = { 200: { description: 'Revoked (empty body)' } };

type Handler = RouteSpec['handler'];
type Operation = RouteSpec['openapi'];

/** What a route of a kind may say besides: how it is wired (suffixes, ids, body limit). */
export type Wiring = Partial<Pick<RouteSpec, 'suffixes' | 'pathIds' | 'body' | 'streamsBody'>>;
/** …and, on a route without a body, its battery's cases and the rest of its operation (errors, description, query). */
export type More = Wiring & { hostile?: HostileCase[]; openapi?: Partial<Operation> };

/** A route without a body that acts (approve, rotate, lock, redeliver), answering with `answers`. */
export function action(method: HttpMethod, path: string, summary: string, answers: Operation['answers'], handler: Handler, more: More = {}): RouteSpec {
  const { openapi, ...rest } = more;
  return { method, path, openapi: { summary, answers, ...openapi }, handler, ...rest };
}

/** A GET answering `ok` (a record, a list, a file). */
export function read(path: string, summary: string, ok: Answer, handler: Handler, more: More = {}): RouteSpec {
  return action('get', path, summary, { 200: ok }, handler, more);
}

/** A DELETE answering 200 with no body. */
export function deletion(path: string, summary: string, handler: Handler, more: More = {}): RouteSpec {
  return action('delete', path, summary, deletedAnswer, handler, more);
}

/** A revocation (a DELETE, or a POST to `…/destroy_all`) answering 200 with no body. */
export function revocation(method: 'delete' | 'post', path: string, summary: string, handler: Handler, more: More = {}): RouteSpec {
  return action(method, path, summary, revokedAnswer, handler, more);
}

/**
 * A route that takes a body (BODY_LIMIT_BYTES unless its wiring says: declare.ts), with its
 * operation in full; the battery's `cases` name the plausible bodies it sends.
 */
export function write(method: HttpMethod, path: string, cases: HostileCase[], handler: Handler, openapi: Operation, wiring: Wiring = {}): RouteSpec {
  return { method, path, openapi, hostile: cases, handler, ...wiring };
}
