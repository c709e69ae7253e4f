import type { AppError } from '@formcast/platform';
import { conflictOnField } from './unique-conflicts';

interface DuplicateKeyError {
  code: 11000;
  keyPattern?: Record<string, unknown>;
  keyValue?: Record<string, unknown>;
}

function isDuplicateKeyError(error: unknown): error is DuplicateKeyError {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === 11000;
}

/**
 * The conflict a unique index reported. Each unique index ends with the field it makes
 * unique (`{orgId, name}`: a name per organization), so the last field names the conflict.
 */
export function conflictFromDuplicateKey(error: unknown): AppError | undefined {
  if (!isDuplicateKeyError(error)) return undefined;
  const field = Object.keys(error.keyPattern ?? {}).at(-1);
  return conflictOnField(field, field === undefined ? undefined : error.keyValue?.[field]);
}
