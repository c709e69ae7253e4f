import BetterSqlite3 from 'better-sqlite3';
import { openNodeSqlite } from './node-sqlite-database';
import type { SqliteDatabase } from './sqlite-types';

/** The modules that can run Formcast's SQLite: SQLITE_BINDING names one. */
export const sqliteBindings = ['better-sqlite3', 'node:sqlite'] as const;
export type SqliteBinding = (typeof sqliteBindings)[number];

/** SQLITE_BINDING (default better-sqlite3), read at each open: every connection of a process, its checkpointer's included, uses it. */
export function sqliteBinding(env: Record<string, string | undefined> = process.env): SqliteBinding {
  const named = env.SQLITE_BINDING?.trim() || 'better-sqlite3';
  if (!(sqliteBindings as readonly string[]).includes(named)) {
    throw new Error(`Invalid setting SQLITE_BINDING: must be one of ${sqliteBindings.join(', ')}; got "${named}"`);
  }
  return named as SqliteBinding;
}

/** A connection to `file` (`':memory:'`: a private in-memory database) through `binding`. */
export function connectSqlite(file: string, binding: SqliteBinding = sqliteBinding()): SqliteDatabase {
  return binding === 'node:sqlite' ? openNodeSqlite(file) : new BetterSqlite3(file);
}
