import type { SqliteDatabase, SqliteQueries } from '@formcast/storage';
import { decideClaim, type ClaimDecision, type KeyRecord } from './claim-decision';
import { keyLifetimeMs, type KeyRequest, type StoredReply } from './idempotency-store';
import { PruneSchedule, type PruneOptions } from './prune-schedule';

/**
 * IF NOT EXISTS: the same statement serves a file of its own and a service's database it is
 * added to. A rowid table: a row holds its reply (a few hundred bytes), and in a WITHOUT ROWID
 * table rows that size made each insert cost nearly twice as much (measured: 34 against 19 µs).
 */
export const createKeysTableSql = `
  CREATE TABLE IF NOT EXISTS idempotency_keys (
    org_id INTEGER NOT NULL,
    key TEXT NOT NULL,
    fingerprint TEXT NOT NULL,
    command_id TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    claimed_at INTEGER NOT NULL,
    reply TEXT,
    PRIMARY KEY (org_id, key)
  ) STRICT;
  -- pruning, oldest first
  CREATE INDEX IF NOT EXISTS idempotency_keys_created_at ON idempotency_keys (created_at);
`;

/** Adds the keys table to a database, outside its numbered migrations (it is created if missing, never changed). */
export function migrateIdempotency(db: SqliteDatabase): void {
  db.exec(createKeysTableSql);
}

interface KeyRow {
  fingerprint: string;
  commandId: string;
  createdAt: number;
  claimedAt: number;
  reply: string | null;
}

/**
 * The `idempotency_keys` table, read and written synchronously inside a transaction the
 * caller holds: the key store's own (SqliteIdempotencyStore), or a service's write that
 * records its key in the same commit as what it creates.
 */
export class SqliteKeyTable {
  private readonly prunes: PruneSchedule;

  constructor(
    private readonly sql: SqliteQueries,
    options: PruneOptions = {},
  ) {
    migrateIdempotency(sql.db);
    this.prunes = new PruneSchedule(options);
  }

  /** What a claim of the key decides, on the record as this transaction reads it (see decideClaim). */
  decide({ orgId, key, fingerprint, commandId, now }: KeyRequest): ClaimDecision {
    const row = this.sql.get<KeyRow>(
      `SELECT fingerprint, command_id AS commandId, created_at AS createdAt, claimed_at AS claimedAt, reply
       FROM idempotency_keys WHERE org_id = ? AND key = ?`,
      orgId,
      key,
    );
    return decideClaim(row && toRecord(row), { fingerprint, commandId }, now);
  }

  /**
   * Writes what the decision asks for (a new record, or a claim taken over), completed with
   * `reply` when given; every `pruneEvery`-th write also deletes a batch of expired keys.
   */
  write({ orgId, key, now }: KeyRequest, decision: ClaimDecision, reply: StoredReply | null = null): void {
    const json = reply === null ? null : JSON.stringify(reply);
    if (decision.write === 'insert') {
      const { record } = decision;
      this.sql.run(
        `INSERT OR REPLACE INTO idempotency_keys (org_id, key, fingerprint, command_id, created_at, claimed_at, reply)
         VALUES (?, ?, ?, ?, ?, ?, ?)`,
        orgId,
        key,
        record.fingerprint,
        record.commandId,
        record.createdAt,
        record.claimedAt,
        json,
      );
    } else if (decision.write === 'reclaim') {
      this.sql.run('UPDATE idempotency_keys SET claimed_at = ?, reply = ? WHERE org_id = ? AND key = ?', decision.claimedAt, json, orgId, key);
    } else {
      return;
    }
    if (this.prunes.pruneDue()) this.deleteExpired(now, this.prunes.pruneBatch);
  }

  complete(orgId: number, key: string, reply: StoredReply): void {
    this.sql.run('UPDATE idempotency_keys SET reply = ? WHERE org_id = ? AND key = ? AND reply IS NULL', JSON.stringify(reply), orgId, key);
  }

  release(orgId: number, key: string): void {
    this.sql.run('DELETE FROM idempotency_keys WHERE org_id = ? AND key = ? AND reply IS NULL', orgId, key);
  }

  deleteExpired(now: Date, limit: number): number {
    return this.sql.run(
      `DELETE FROM idempotency_keys WHERE (org_id, key) IN
         (SELECT org_id, key FROM idempotency_keys WHERE created_at <= ? ORDER BY created_at LIMIT ?)`,
      now.getTime() - keyLifetimeMs,
      limit,
    );
  }
}

function toRecord({ reply, ...fields }: KeyRow): KeyRecord {
  return { ...fields, reply: reply === null ? null : (JSON.parse(reply) as StoredReply) };
}
