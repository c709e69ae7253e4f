import type { Request } from 'express';
import { AppError } from '@formcast/platform';

/** A paging parameter of the query string (`page`, `per_page`…): a positive integer, or undefined when absent. */
export function pageQuery(req: Request, name: string): number | undefined {
  const value = req.query[name];
  if (value === undefined || value === '') return undefined;
  if (typeof value === 'string' && /^[1-9][0-9]{0,8}$/.test(value)) return Number(value);
  throw new AppError('invalid', `${name}: must be a positive integer`);
}
