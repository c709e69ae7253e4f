import type { Migration, SqliteDatabase } from './sqlite-types';

/** The table behind `nextSqliteId`: put it in a service's migrations (see `countersMigration`). */
export const createCountersTableSql = `
  CREATE TABLE IF NOT EXISTS counters (
    name TEXT PRIMARY KEY,
    value INTEGER NOT NULL
  ) STRICT;
`;

/** A migration step creating the counters table, at the version the service gives it. */
export function countersMigration(version: number): Migration {
  return { version, up: createCountersTableSql };
}

type CounterStatement = import('better-sqlite3').Statement<[string], { value: number }>;

/** One prepared statement per database: preparing it for every id cost more than running it. */
const counterStatements = new WeakMap<SqliteDatabase, CounterStatement>();

/**
 * The next integer id of a collection (1, 2, 3...). One statement, so it joins the caller's
 * transaction when there is one: an id taken by a rolled-back change is given out again.
 */
export function nextSqliteId(db: SqliteDatabase, name: string): number {
  let statement = counterStatements.get(db);
  if (!statement) {
    statement = db.prepare<[string], { value: number }>(
      `INSERT INTO counters (name, value) VALUES (?, 1)
       ON CONFLICT (name) DO UPDATE SET value = value + 1
       RETURNING value`,
    );
    counterStatements.set(db, statement);
  }
  const row = statement.get(name);
  if (!row) throw new Error(`The counter "${name}" returned no value`);
  return row.value;
}
