import { AppError } from '@formcast/platform';

/** An id from the path: anything but a plain positive integer cannot exist. */
export function pathId(value: unknown, what: string): number {
  if (typeof value === 'string' && /^[1-9][0-9]{0,14}$/.test(value)) return Number(value);
  throw new AppError('not_found', `${what} ${String(value)} does not exist`);
}
