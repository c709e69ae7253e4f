import type { AppError } from '@formcast/platform';
import {
  apiTokenTaken,
  deviceIdentifierTaken,
  deviceSecretTaken,
  enrollmentCodeTaken,
  formNamespaceTaken,
  groupNameTaken,
} from './directory-errors';

interface DuplicateKeyError {
  code: 11000;
  keyPattern?: Record<string, unknown>;
  keyValue?: Record<string, unknown>;
}

function isDuplicateKeyError(error: unknown): error is DuplicateKeyError {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === 11000;
}

/**
 * The conflict a unique index reported. The store checks for duplicates before writing, so
 * this only happens when two writers race; the index then decides, and the loser gets the
 * same error as if the check had caught it.
 */
export function conflictFromDuplicateKey(error: unknown): AppError | undefined {
  if (!isDuplicateKeyError(error)) return undefined;
  const fields = Object.keys(error.keyPattern ?? {});
  const value = (field: string) => String(error.keyValue?.[field] ?? '');
  if (fields.includes('identifier')) return deviceIdentifierTaken(value('identifier'));
  if (fields.includes('secretHash')) return deviceSecretTaken();
  if (fields.includes('namespace')) return formNamespaceTaken(value('namespace'));
  if (fields.includes('name')) return groupNameTaken(value('name'));
  if (fields.includes('tokenHash')) return apiTokenTaken();
  if (fields.includes('enrollmentCode')) return enrollmentCodeTaken();
  return undefined;
}
