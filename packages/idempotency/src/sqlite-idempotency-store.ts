import { closeSqlite, openSqlite, SqliteQueries, type Migration, type SqliteDatabase } from '@formcast/storage';
import type { ClaimOutcome, IdempotencyStore, KeyRequest, StoredReply } from './idempotency-store';
import type { PruneOptions } from './prune-schedule';
import { createKeysTableSql, migrateIdempotency, SqliteKeyTable } from './sqlite-key-table';

/** The migrations of a keys file of its own. */
export const idempotencyMigrations: Migration[] = [{ version: 1, up: createKeysTableSql }];

export { migrateIdempotency };

/**
 * Idempotency keys on SQLite. A claim reads, decides (`decideClaim`) and writes in one
 * IMMEDIATE transaction, so of two claims at once, also from two processes on the file, one
 * wins. Claims and completions of one turn of the event loop share a commit (`writeGrouped`):
 * handed a service's `SqliteQueries`, they share the service's own commits too.
 */
export class SqliteIdempotencyStore implements IdempotencyStore {
  private readonly sql: SqliteQueries;
  private readonly table: SqliteKeyTable;
  private readonly ownsDatabase: boolean;

  /** A file (opened and closed by the store), or a database (or its queries) the caller opened and closes. */
  constructor(database: SqliteQueries | SqliteDatabase | string, options: PruneOptions = {}) {
    this.ownsDatabase = typeof database === 'string';
    if (database instanceof SqliteQueries) this.sql = database;
    else this.sql = new SqliteQueries(typeof database === 'string' ? openSqlite(database, idempotencyMigrations) : database);
    this.table = new SqliteKeyTable(this.sql, options);
  }

  claim(orgId: number, key: string, fingerprint: string, commandId: string, now: Date): Promise<ClaimOutcome> {
    const request = { orgId, key, fingerprint, commandId, now };
    return this.sql.writeGrouped(() => {
      const decision = this.table.decide(request);
      this.table.write(request, decision);
      return decision.outcome;
    });
  }

  async peek(orgId: number, key: string, fingerprint: string, commandId: string, now: Date): Promise<ClaimOutcome> {
    return this.table.decide({ orgId, key, fingerprint, commandId, now }).outcome;
  }

  async keep(request: KeyRequest, reply: StoredReply): Promise<void> {
    await this.sql.writeGrouped(() => this.table.write(request, this.table.decide(request), reply));
  }

  async complete(orgId: number, key: string, reply: StoredReply): Promise<void> {
    await this.sql.writeGrouped(() => this.table.complete(orgId, key, reply));
  }

  async release(orgId: number, key: string): Promise<void> {
    await this.sql.writeGrouped(() => this.table.release(orgId, key));
  }

  prune(now: Date, limit: number): Promise<number> {
    return this.sql.writeGrouped(() => this.table.deleteExpired(now, limit));
  }

  async close(): Promise<void> {
    if (this.ownsDatabase) await closeSqlite(this.sql.db);
  }
}
