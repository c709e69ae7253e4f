import { authorsAnswer, authorsQuery } from '../openapi/views';
import { authorsRoute } from '../routes/submissions';
import type { RouteSpec } from './declare';
import { read } from './route-kinds';

/** The possible authors (the organization's approved devices), as v3 lists them for submissions and for dispatches. */
export const possibleAuthors = (path: string, summary: string): RouteSpec =>
  read(path, summary, authorsAnswer, ({ send }) => authorsRoute(send), { openapi: { query: authorsQuery, errors: [400] }, hostile: [{ suffix: '.xml' }] });
