import type { SqliteDatabase, SqliteStatement } from './sqlite-types';

/**
 * What every SQLite store does with its database: transactions, and statements prepared
 * once and reused (preparing is the costly part of a small query).
 */
export class SqliteQueries {
  private readonly statements = new Map<string, SqliteStatement>();
  /** Built once: better-sqlite3 takes several µs to build a transaction function. */
  private readonly transaction: ReturnType<SqliteDatabase['transaction']>;
  private grouped: Array<GroupedWrite<unknown>> = [];
  /** What `afterCommit` was given by the change running now; null outside one. */
  private committing: Array<() => void> | null = null;

  constructor(readonly db: SqliteDatabase) {
    this.transaction = db.transaction((work: () => unknown) => work());
  }

  /** A change, all or nothing; IMMEDIATE, so another process on the file cannot interleave. */
  write<T>(change: () => T): T {
    const outer = this.committing;
    const mine: Array<() => void> = [];
    this.committing = mine;
    let value: T;
    try {
      value = this.transaction.immediate(change) as T;
    } finally {
      this.committing = outer;
    }
    // Nested in another write, it commits with that one.
    if (outer) outer.push(...mine);
    else runAll(mine);
    return value;
  }

  /**
   * Inside a write: `then` runs once the change has committed, synchronously after the
   * commit (before any other statement); never when the change or its transaction rolls
   * back. Outside any write (a statement that committed on its own), at once.
   */
  afterCommit(then: () => void): void {
    if (this.committing) this.committing.push(then);
    else then();
  }

  /**
   * A change, all or nothing, committed together with the others asked for in the same turn
   * of the event loop (group commit): one IMMEDIATE transaction, each change in a savepoint
   * of its own, so one that throws undoes only itself and rejects only its caller. Resolves
   * once the transaction has committed; when the commit itself fails, every change of the
   * group rejects with that error and none is kept.
   *
   * Why: the commit is most of a small write's cost (writing its pages to the WAL; measured
   * for issue 7, about 25 µs of CPU of the 40 a create took alone), and concurrent requests
   * would each pay it.
   */
  writeGrouped<T>(change: () => T): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.grouped.push({ change, resolve: resolve as (value: unknown) => void, reject });
      if (this.grouped.length === 1) setImmediate(() => this.commitGroup());
    });
  }

  /** Several reads seen at one instant, even with another process writing the file. */
  read<T>(reads: () => T): T {
    return this.transaction.deferred(reads) as T;
  }

  private commitGroup(): void {
    const group = this.grouped;
    this.grouped = [];
    const outcomes: Array<{ value: unknown } | { error: unknown }> = [];
    const committed: Array<() => void> = [];
    try {
      this.transaction.immediate(() => {
        for (const { change } of group) {
          const mine: Array<() => void> = [];
          this.committing = mine;
          try {
            // Nested, the transaction function is a savepoint.
            outcomes.push({ value: this.transaction(change) });
            committed.push(...mine);
          } catch (error) {
            // SQLite rolls the whole transaction back on some errors (a full disk): then
            // nothing of the group can be kept.
            if (!this.db.inTransaction) throw error;
            outcomes.push({ error });
          } finally {
            this.committing = null;
          }
        }
      });
    } catch (error) {
      for (const write of group) write.reject(error);
      return;
    }
    runAll(committed);
    group.forEach((write, i) => {
      const outcome = outcomes[i]!;
      if ('error' in outcome) write.reject(outcome.error);
      else write.resolve(outcome.value);
    });
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

interface GroupedWrite<T> {
  change: () => T;
  resolve: (value: T) => void;
  reject: (error: unknown) => void;
}

/** Each in turn. One that throws (it should not) is a warning: the writes have committed, and their callers are still answered. */
function runAll(callbacks: Array<() => void>): void {
  for (const callback of callbacks) {
    try {
      callback();
    } catch (error) {
      process.emitWarning(error instanceof Error ? error : String(error), 'SqliteAfterCommitWarning');
    }
  }
}
