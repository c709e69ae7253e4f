import type BetterSqlite3 from 'better-sqlite3';

export type SqliteDatabase = BetterSqlite3.Database;
/** A prepared statement taking positional parameters. */
export type SqliteStatement = BetterSqlite3.Statement<unknown[], unknown>;

/**
 * One schema step. `version`s are positive and strictly ascending; a database records the
 * last one applied in `PRAGMA user_version`, so released migrations must never change.
 */
export interface Migration {
  version: number;
  up: string | ((db: SqliteDatabase) => void);
}
