import type { SqliteQueries } from '@formcast/storage';

/** The ids a query selects, as `id`, in the order it selects them. */
export function selectIds(sql: SqliteQueries, query: string, ...params: unknown[]): number[] {
  return sql.all<{ id: number }>(query, ...params).map((row) => row.id);
}

/** What `complete` makes of the row `find` reads, or null when it reads none; both at one instant. */
export function readOne<Row, R>(sql: SqliteQueries, find: () => Row | undefined, complete: (row: Row) => R): R | null {
  return sql.read(() => {
    const row = find();
    return row ? complete(row) : null;
  });
}
