import type { AppError } from '@formcast/platform';
import {
  apiTokenTaken,
  deviceIdentifierTaken,
  deviceSecretTaken,
  enrollmentCodeTaken,
  formNamespaceTaken,
  groupNameTaken,
} from '../domain/errors';

/**
 * The conflict a unique index on this record field reports, naming `value` where the
 * message shows it. Both adapters leave uniqueness to their indexes (the SQLite schema, the
 * Mongo schemas): a check before writing would still race another writer, and the index
 * decides either way.
 */
export function conflictOnField(field: string | undefined, value: unknown): AppError | undefined {
  switch (field) {
    case 'enrollmentCodeHash':
      return enrollmentCodeTaken();
    case 'tokenHash':
      return apiTokenTaken();
    case 'name':
      return groupNameTaken(String(value ?? ''));
    case 'identifier':
      return deviceIdentifierTaken(String(value ?? ''));
    case 'secretHash':
      return deviceSecretTaken();
    case 'namespace':
      return formNamespaceTaken(String(value ?? ''));
    default:
      return undefined;
  }
}
