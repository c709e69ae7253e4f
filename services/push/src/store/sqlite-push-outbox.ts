import type { Envelope } from '@formcast/contracts';
import type { SqliteQueries } from '@formcast/storage';
import type { OutboxBacklog, OutboxEntry } from './push-store';

/**
 * The push store's outbox on SQLite: events written in the transaction of the change they
 * tell (`append`, inside the store's writes), read by the relay fairly across
 * organizations, and deleted once published. A listener, when set, is handed each event at
 * the commit that keeps it, so the relay need not read it back.
 */
export class SqlitePushOutbox {
  private committed: ((entry: OutboxEntry) => void) | null = null;

  constructor(private readonly sql: SqliteQueries) {}

  /** Inside a write: the event, in the same transaction (nothing for null). */
  append(event: Envelope | null): void {
    if (event === null) return;
    const { lastInsertRowid } = this.sql.statement('INSERT INTO outbox (event, org_id) VALUES (?, ?)').run(JSON.stringify(event), event.orgId ?? 0);
    const listener = this.committed;
    if (listener) this.sql.afterCommit(() => listener({ seq: Number(lastInsertRowid), event }));
  }

  onCommitted(listener: (entry: OutboxEntry) => void): void {
    this.committed = listener;
  }

  /**
   * Fair across organizations: the organizations with events waiting (a skip scan of the
   * outbox_by_org index, one seek each), then each one's oldest, an equal share of `limit`
   * (at least one), the batch filled up with the oldest of the rest, in seq order; so one organization's backlog never holds up another's
   * newer events for more than a batch. Each organization's events keep their order. Fewer
   * than `limit` waiting, all of them, oldest first: the walk only when there is a choice.
   */
  async unpublished(limit: number): Promise<OutboxEntry[]> {
    // The usual case (the relay is woken by each write): a few events, one read (issue 24: the
    // walk every time was 5% of an embedded push's CPU).
    const oldest = this.sql.all<{ seq: number; event: string }>('SELECT seq, event FROM outbox ORDER BY seq LIMIT ?', limit);
    if (oldest.length < limit) return toOutboxEntries(oldest);
    const organizations = this.sql
      .all<{ org: number }>(
        `WITH RECURSIVE waiting(org) AS (
           SELECT min(org_id) FROM outbox
           UNION ALL
           SELECT (SELECT min(org_id) FROM outbox WHERE org_id > waiting.org) FROM waiting WHERE waiting.org IS NOT NULL
         )
         SELECT org FROM waiting WHERE org IS NOT NULL LIMIT ?`,
        limit,
      )
      .map((row) => row.org);
    if (organizations.length <= 1) return toOutboxEntries(oldest);
    const share = Math.max(1, Math.floor(limit / organizations.length));
    const oldestOf = this.sql.statement('SELECT seq, event FROM outbox WHERE org_id = ? ORDER BY seq LIMIT ?');
    const rows = organizations.flatMap((org) => oldestOf.all(org, share) as Array<{ seq: number; event: string }>);
    // The batch filled up with the oldest of the rest: a batch shorter than `limit` still means all there was (the relay reads it so).
    if (rows.length < limit) {
      const taken = JSON.stringify(rows.map((row) => row.seq));
      rows.push(
        ...this.sql.all<{ seq: number; event: string }>(
          'SELECT seq, event FROM outbox WHERE seq NOT IN (SELECT value FROM json_each(?)) ORDER BY seq LIMIT ?',
          taken,
          limit - rows.length,
        ),
      );
    }
    rows.sort((a, b) => a.seq - b.seq);
    return toOutboxEntries(rows);
  }

  async markPublished(seqs: number[]): Promise<void> {
    // Grouped with the writes of this turn: a commit of its own would cost as much as theirs.
    await this.sql.writeGrouped(() => this.sql.run('DELETE FROM outbox WHERE seq IN (SELECT value FROM json_each(?))', JSON.stringify(seqs)));
  }

  async backlog(): Promise<OutboxBacklog> {
    const row = this.sql.statement(
      "SELECT count(*) AS count, (SELECT json_extract(event, '$.occurredAt') FROM outbox ORDER BY seq LIMIT 1) AS oldest FROM outbox",
    ).get() as { count: number; oldest: string | null };
    return { count: row.count, oldestOccurredAt: row.oldest };
  }
}

function toOutboxEntries(rows: Array<{ seq: number; event: string }>): OutboxEntry[] {
  return rows.map((r) => ({ seq: r.seq, event: JSON.parse(r.event) as Envelope }));
}
