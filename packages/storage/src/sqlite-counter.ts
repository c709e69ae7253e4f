import type { Migration, SqliteDatabase } from './sqlite';

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

/**
 * The next integer id of a collection (1, 2, 3...). One statement, so it joins the caller's
 * transaction when there is one: an id taken by a rolled-back change is given out again.
 */
export function nextSqliteId(db: SqliteDatabase, name: string): number {
  const row = db
    .prepare<[string], { value: number }>(
      `INSERT INTO counters (name, value) VALUES (?, 1)
       ON CONFLICT (name) DO UPDATE SET value = value + 1
       RETURNING value`,
    )
    .get(name);
  if (!row) throw new Error(`The counter "${name}" returned no value`);
  return row.value;
}
