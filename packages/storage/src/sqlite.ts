import { resolve } from 'node:path';
import { createLogger, type Logger } from '@formcast/platform';
import { connectSqlite } from './sqlite-binding';
import { checkpointInBackground } from './sqlite-checkpointer';
import { prepareSqliteFile } from './sqlite-file-modes';
import type { Migration, SqliteDatabase } from './sqlite-types';

export type { Migration, SqliteDatabase, SqliteStatement } from './sqlite-types';

const busyTimeoutMs = 5000;

export interface SqliteOptions {
  /**
   * The page cache of this connection, in KiB (2048: SQLite's own default). better-sqlite3
   * builds SQLite with 16 MB instead, which every database of a process filled and kept: a
   * 10 MB file written as resource chunks grew the process by 12.6 MB with it, 3.9 MB with
   * 2 MiB (issue 7, S4). Reads past the cache come from the OS's page cache.
   */
  cacheKiB?: number;
  /** Where a data file made private to its owner is reported (default: a logger of its own, named "storage"). */
  logger?: Logger;
}

let defaultLogger: Logger | undefined;
const storageLogger = () => (defaultLogger ??= createLogger({ name: 'storage' }));

/**
 * Opens (creating it and its folder if needed) a SQLite database and brings its schema up
 * to date. `':memory:'` opens a private in-memory database. The file and its companions are
 * 0600 in a 0700 folder: created so, tightened if found wider (see prepareSqliteFile).
 */
export function openSqlite(file: string, migrations: Migration[], options: SqliteOptions = {}): SqliteDatabase {
  const inMemory = file === ':memory:' || file === '';
  if (!inMemory) prepareSqliteFile(resolve(file), options.logger ?? storageLogger());
  const db = connectSqlite(file);
  try {
    // First: switching to WAL waits for other processes opening the file at the same time.
    db.pragma(`busy_timeout = ${busyTimeoutMs}`);
    db.pragma('journal_mode = WAL');
    // NORMAL, not FULL: in WAL mode a commit is in the WAL (the OS's page cache) when it
    // returns and only checkpoints fsync, so a killed process loses no committed write (our
    // standard); an OS crash or power loss may lose the last commits, never corrupt the file.
    // FULL would fsync the WAL on every commit. Measured (issue 7): no other pragma
    // (wal_autocheckpoint, cache_size, mmap_size) changed the CPU a write costs here.
    db.pragma('synchronous = NORMAL');
    db.pragma('foreign_keys = ON');
    db.pragma(`cache_size = -${options.cacheKiB ?? 2048}`);
    migrateSqlite(db, migrations, inMemory ? 'the in-memory database' : file);
    if (!inMemory) checkpointInBackground(db, resolve(file));
    return db;
  } catch (error) {
    db.close();
    throw error;
  }
}

/**
 * Applies the migrations newer than the database's `user_version`, each in its own
 * transaction together with the version bump, so a failed step leaves the previous version.
 */
export function migrateSqlite(db: SqliteDatabase, migrations: Migration[], label = db.name): void {
  checkMigrationOrder(migrations);
  const current = schemaVersion(db);
  const latest = migrations.at(-1)?.version ?? 0;
  if (current > latest) {
    throw new Error(
      `The database ${label} is at schema version ${current}, newer than this code knows ` +
        `(${latest}). Run a newer release against it, or point this one at another data directory.`,
    );
  }
  for (const migration of migrations) {
    if (migration.version <= current) continue;
    const apply = db.transaction(() => {
      // Read again under the write lock: another process opening the same file (a second
      // replica starting at the same time) may have applied this step since the read above.
      if (schemaVersion(db) >= migration.version) return;
      if (typeof migration.up === 'string') db.exec(migration.up);
      else migration.up(db);
      // PRAGMA does not take bound parameters; the version is a checked integer.
      db.pragma(`user_version = ${migration.version}`);
    });
    try {
      apply.immediate();
    } catch (error) {
      throw new Error(`Migration ${migration.version} of ${label} failed: ${errorMessage(error)}`, {
        cause: error,
      });
    }
  }
}

export function schemaVersion(db: SqliteDatabase): number {
  return Number(db.pragma('user_version', { simple: true }));
}

function checkMigrationOrder(migrations: Migration[]): void {
  let previous = 0;
  for (const { version } of migrations) {
    if (!Number.isSafeInteger(version) || version <= previous) {
      throw new Error(
        `Migration versions must be positive integers in ascending order; got ${version} after ${previous}`,
      );
    }
    previous = version;
  }
}

/** Duck-typed: errors from the native module may come from another realm (e.g. under jest). */
function errorMessage(error: unknown): string {
  const message = (error as { message?: unknown } | null)?.message;
  return typeof message === 'string' ? message : String(error);
}

/**
 * A store's database: a file (created with its folder if missing) or `':memory:'` opened
 * with `openSqlite`, or a database already opened by the caller (tests share one), brought
 * up to date with the migrations either way.
 */
export function storeDatabase(database: SqliteDatabase | string, migrations: Migration[]): SqliteDatabase {
  if (typeof database === 'string') return openSqlite(database, migrations);
  migrateSqlite(database, migrations);
  return database;
}
