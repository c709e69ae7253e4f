import type { AppError } from '@formcast/platform';
import { conflictOnField } from './unique-conflicts';

/**
 * Runs `write`; a unique index it violates becomes that index's conflict, naming the value
 * from `record` (the record written, by field name: the index's last column in camelCase).
 */
export function writeUnique<T>(record: object, write: () => T): T {
  try {
    return write();
  } catch (error) {
    throw conflictFromUniqueViolation(error, record) ?? error;
  }
}

interface SqliteUniqueViolation {
  code: 'SQLITE_CONSTRAINT_UNIQUE';
  /** "UNIQUE constraint failed: groups.org_id, groups.name" */
  message: string;
}

/**
 * By its code, not `instanceof`: better-sqlite3's native part keeps the error class of the
 * first module registry that loaded it, which is another realm's in a jest worker's later suites.
 */
function isUniqueViolation(error: unknown): error is SqliteUniqueViolation {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  return code === 'SQLITE_CONSTRAINT_UNIQUE' && typeof message === 'string';
}

function conflictFromUniqueViolation(error: unknown, record: object): AppError | undefined {
  if (!isUniqueViolation(error)) return undefined;
  const column = /\.(\w+)$/.exec(error.message)?.[1];
  const field = column?.replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase());
  return conflictOnField(field, field === undefined ? undefined : (record as Record<string, unknown>)[field]);
}
