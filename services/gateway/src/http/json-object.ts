import type { Request } from 'express';
import { AppError } from '@formcast/platform';
import { jsonBody } from './request-body';

/** A JSON object: not null, not an array. */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The JSON body as an object (`{…}`), or a 400 saying what was `expected`. */
export function jsonObjectBody(req: Request, expected: string): Record<string, unknown> {
  const body = jsonBody(req);
  if (!isPlainObject(body)) throw new AppError('invalid', `Expected a JSON object ${expected}`);
  return body;
}
