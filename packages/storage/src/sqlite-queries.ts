import type { SqliteDatabase, SqliteStatement } from './sqlite';

/**
 * What every SQLite store does with its database: transactions, and statements prepared
 * once and reused (preparing is the costly part of a small query).
 */
export class SqliteQueries {
  private readonly statements = new Map<string, SqliteStatement>();
  /** Built once: better-sqlite3 takes several µs to build a transaction function. */
  private readonly transaction: ReturnType<SqliteDatabase['transaction']>;

  constructor(readonly db: SqliteDatabase) {
    this.transaction = db.transaction((work: () => unknown) => work());
  }

  /** A change, all or nothing; IMMEDIATE, so another process on the file cannot interleave. */
  write<T>(change: () => T): T {
    return this.transaction.immediate(change) as T;
  }

  /** Several reads seen at one instant, even with another process writing the file. */
  read<T>(reads: () => T): T {
    return this.transaction.deferred(reads) as T;
  }

  statement(sql: string): SqliteStatement {
    let statement = this.statements.get(sql);
    if (!statement) {
      statement = this.db.prepare<unknown[], unknown>(sql);
      this.statements.set(sql, statement);
    }
    return statement;
  }

  get<Row = unknown>(sql: string, ...params: unknown[]): Row | undefined {
    return this.statement(sql).get(...params) as Row | undefined;
  }

  all<Row = unknown>(sql: string, ...params: unknown[]): Row[] {
    return this.statement(sql).all(...params) as Row[];
  }

  /** The number of rows the statement changed. */
  run(sql: string, ...params: unknown[]): number {
    return this.statement(sql).run(...params).changes;
  }
}
