import { DatabaseSync, type StatementSync } from 'node:sqlite';
import { sqliteCodeName } from './sqlite-error-codes';
import type { SqliteDatabase } from './sqlite-types';

/*
 * node:sqlite (Node's own SQLite) behind better-sqlite3's API, the part Formcast uses:
 * prepare → run/get/all/iterate with pluck/raw/columns, transaction(fn) with its
 * deferred/immediate/exclusive variants (a savepoint when nested), pragma, exec, close,
 * open, inTransaction. What differs is made the same: BLOBs come back as Buffers (on the
 * same memory), array parameters are spread, an object's keys the statement does not name
 * are ignored, and an error from SQLite carries
 * better-sqlite3's `code` ("SQLITE_CONSTRAINT_UNIQUE") instead of "ERR_SQLITE_ERROR".
 */

type Row = Record<string, unknown>;
type Mode = 'object' | 'raw' | 'pluck';

/** better-sqlite3's name for its nested transactions' savepoint. */
const savepoint = '`\t_bs3.\t`';

/** Opens `file` (`':memory:'` for a private in-memory database) with node:sqlite. */
export function openNodeSqlite(file: string): SqliteDatabase {
  return new NodeSqliteDatabase(file) as unknown as SqliteDatabase;
}

class NodeSqliteDatabase {
  private readonly db: DatabaseSync;
  /** BEGIN, COMMIT, SAVEPOINT…: prepared once each, as better-sqlite3 does. */
  private readonly controls = new Map<string, StatementSync>();

  constructor(readonly name: string) {
    // better-sqlite3's default busy timeout; openSqlite sets its own with a pragma anyway.
    this.db = new DatabaseSync(name, { timeout: 5000 });
  }

  get open(): boolean {
    return this.db.isOpen;
  }

  get inTransaction(): boolean {
    return this.db.isTransaction;
  }

  get memory(): boolean {
    return this.name === ':memory:' || this.name === '';
  }

  readonly readonly = false;

  prepare(sql: string): NodeSqliteStatement {
    return new NodeSqliteStatement(sqlite(() => this.db.prepare(sql)), sql, this);
  }

  exec(sql: string): this {
    sqlite(() => this.db.exec(sql));
    return this;
  }

  pragma(source: string, options: { simple?: boolean } = {}): unknown {
    const statement = this.prepare(`PRAGMA ${source}`);
    return options.simple ? statement.pluck().get() : statement.all();
  }

  close(): this {
    if (this.db.isOpen) this.db.close();
    return this;
  }

  transaction<Args extends unknown[], Result>(fn: (...args: Args) => Result) {
    const variant = (begin: string) => {
      const run = (thisArg: unknown, args: Args) => this.runTransaction(begin, fn, thisArg, args);
      return function sqliteTransaction(this: unknown, ...args: Args): Result {
        return run(this, args);
      };
    };
    const variants = {
      default: variant('BEGIN'),
      deferred: variant('BEGIN DEFERRED'),
      immediate: variant('BEGIN IMMEDIATE'),
      exclusive: variant('BEGIN EXCLUSIVE'),
      database: this,
    };
    for (const name of ['default', 'deferred', 'immediate', 'exclusive'] as const) Object.assign(variants[name], variants);
    return variants.default;
  }

  private runTransaction<Args extends unknown[], Result>(begin: string, fn: (...args: Args) => Result, thisArg: unknown, args: Args): Result {
    const nested = this.db.isTransaction;
    this.control(nested ? `SAVEPOINT ${savepoint}` : begin);
    try {
      const result = fn.apply(thisArg, args);
      if (result && typeof (result as { then?: unknown }).then === 'function') {
        throw new TypeError('Transaction function cannot return a promise');
      }
      this.control(nested ? `RELEASE ${savepoint}` : 'COMMIT');
      return result;
    } catch (error) {
      if (this.db.isTransaction) {
        this.control(nested ? `ROLLBACK TO ${savepoint}` : 'ROLLBACK');
        if (nested) this.control(`RELEASE ${savepoint}`);
      }
      throw error;
    }
  }

  private control(sql: string): void {
    let statement = this.controls.get(sql);
    if (!statement) {
      statement = sqlite(() => this.db.prepare(sql));
      this.controls.set(sql, statement);
    }
    try {
      statement.run();
    } catch (error) {
      throw withSqliteCode(error);
    }
  }
}

class NodeSqliteStatement {
  private mode: Mode = 'object';

  constructor(
    private readonly statement: StatementSync,
    readonly source: string,
    readonly database: NodeSqliteDatabase,
  ) {
    // better-sqlite3 binds what the statement names from an object, and ignores the rest of it.
    statement.setAllowUnknownNamedParameters(true);
    // Rows as arrays, made objects here: node:sqlite's own row objects (null prototype, one
    // property set at a time) cost twice better-sqlite3's to build, these about the same.
    statement.setReturnArrays(true);
  }

  /** The names of the columns, once: the keys of each row as an object. */
  private names: string[] | undefined;

  /** Whether the statement returns rows. */
  get reader(): boolean {
    return this.statement.columns().length > 0;
  }

  run(...params: unknown[]): { changes: number | bigint; lastInsertRowid: number | bigint } {
    try {
      return this.statement.run(...bindable(params));
    } catch (error) {
      throw withSqliteCode(error);
    }
  }

  get(...params: unknown[]): unknown {
    let row: unknown[] | undefined;
    try {
      row = this.statement.get(...bindable(params)) as unknown[] | undefined;
    } catch (error) {
      throw withSqliteCode(error);
    }
    return row === undefined ? undefined : this.shape(row);
  }

  all(...params: unknown[]): unknown[] {
    let rows: unknown[][];
    try {
      rows = this.statement.all(...bindable(params)) as unknown as unknown[][];
    } catch (error) {
      throw withSqliteCode(error);
    }
    const shaped: unknown[] = rows;
    for (let i = 0; i < rows.length; i += 1) shaped[i] = this.shape(rows[i]!);
    return shaped;
  }

  *iterate(...params: unknown[]): IterableIterator<unknown> {
    const rows = sqlite(() => this.statement.iterate(...bindable(params))) as Iterator<unknown[]>;
    for (;;) {
      const next = sqlite(() => rows.next());
      if (next.done) return;
      yield this.shape(next.value);
    }
  }

  /** Each row as its first column's value (off again with `pluck(false)`). */
  pluck(on = true): this {
    return this.setMode(on ? 'pluck' : this.mode === 'pluck' ? 'object' : this.mode);
  }

  /** Each row as an array of its values (off again with `raw(false)`). */
  raw(on = true): this {
    return this.setMode(on ? 'raw' : this.mode === 'raw' ? 'object' : this.mode);
  }

  columns() {
    return this.statement.columns();
  }

  private setMode(mode: Mode): this {
    this.mode = mode;
    return this;
  }

  private shape(values: unknown[]): unknown {
    if (this.mode === 'pluck') return asBuffer(values[0]);
    if (this.mode === 'raw') {
      for (let i = 0; i < values.length; i += 1) values[i] = asBuffer(values[i]);
      return values;
    }
    const names = (this.names ??= this.statement.columns().map((column) => column.name));
    const row: Row = {};
    for (let i = 0; i < names.length; i += 1) row[names[i]!] = asBuffer(values[i]);
    return row;
  }
}

/** A BLOB as better-sqlite3 returns it: a Buffer, here over the same memory. */
function asBuffer(value: unknown): unknown {
  return value instanceof Uint8Array && !Buffer.isBuffer(value) ? Buffer.from(value.buffer, value.byteOffset, value.byteLength) : value;
}

/** better-sqlite3 spreads array parameters: `run([a, b])` is `run(a, b)`. */
function bindable(params: unknown[]): never[] {
  for (let i = 0; i < params.length; i += 1) {
    if (Array.isArray(params[i])) return params.flat(1) as never[];
  }
  return params as never[];
}

/** Runs `work`, with `withSqliteCode` on what it throws. */
function sqlite<T>(work: () => T): T {
  try {
    return work();
  } catch (error) {
    throw withSqliteCode(error);
  }
}

/** An error from SQLite, given better-sqlite3's code for it ("SQLITE_CONSTRAINT_UNIQUE"). */
function withSqliteCode(error: unknown): unknown {
  const sqliteError = error as { code?: unknown; errcode?: unknown } | null;
  if (sqliteError?.code === 'ERR_SQLITE_ERROR' && typeof sqliteError.errcode === 'number') {
    sqliteError.code = sqliteCodeName(sqliteError.errcode);
  }
  return error;
}
