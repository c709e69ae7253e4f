import type { SqliteQueries } from '@formcast/storage';
import { appliedCommandWindowMs } from './applied-commands';

/** Expired ids forgotten by each record, at most this many (creates are rare: it keeps up). */
const pruneBatch = 100;

/** The ids a create applied under `commandId` recorded, in order; null when it has not been applied. Inside the caller's transaction. */
export function appliedIds(sql: SqliteQueries, orgId: number, commandId: string): number[] | null {
  const row = sql.get<{ created_ids: string }>(
    'SELECT created_ids FROM applied_commands WHERE command_id = ? AND org_id = ?',
    commandId,
    orgId,
  );
  return row ? (JSON.parse(row.created_ids) as number[]) : null;
}

/** Records a create's command id with what it created, in the create's transaction, and forgets a batch of expired ones. */
export function recordApplied(sql: SqliteQueries, orgId: number, commandId: string, createdIds: number[], now = new Date()): void {
  sql.run(
    'INSERT INTO applied_commands (command_id, org_id, created_ids, applied_at) VALUES (?, ?, ?, ?)',
    commandId,
    orgId,
    JSON.stringify(createdIds),
    now.toISOString(),
  );
  sql.run(
    `DELETE FROM applied_commands WHERE command_id IN
       (SELECT command_id FROM applied_commands WHERE applied_at < ? ORDER BY applied_at LIMIT ?)`,
    new Date(now.getTime() - appliedCommandWindowMs).toISOString(),
    pruneBatch,
  );
}
