import { AppError } from '@formcast/platform';
import { nextSqliteId, openSqlite, SqliteQueries, type SqliteDatabase } from '@formcast/storage';
import type { Envelope } from '@formcast/contracts';
import type { OneshotEventFactory } from '../domain/oneshot-events';
import type { Oneshot, OneshotState, OneshotSummary, Submission } from '../domain/records';
import { CommandWindow, type CommandWindowOptions } from './command-window';
import type { NewOneshot, OneshotChange, OutboxEntry, PushStore } from './push-store';
import { pushMigrations } from './sqlite-migrations';

interface OneshotRow {
  id: number;
  org_id: number;
  device_id: number;
  device_identifier: string;
  form_id: number;
  template_namespace: string;
  namespace: string;
  name: string;
  description: string;
  payload: string;
  state: OneshotState;
  created_at: string;
  updated_at: string;
}

interface SubmissionRow {
  oneshot_id: number;
  org_id: number;
  device_id: number;
  answers: string;
  submitted_at: string;
}

const toOneshot = (r: OneshotRow): Oneshot => ({
  id: r.id,
  orgId: r.org_id,
  deviceId: r.device_id,
  deviceIdentifier: r.device_identifier,
  formId: r.form_id,
  templateNamespace: r.template_namespace,
  namespace: r.namespace,
  name: r.name,
  description: r.description,
  payload: JSON.parse(r.payload) as Record<string, unknown>,
  state: r.state,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

type SummaryRow = Pick<OneshotRow, 'id' | 'org_id' | 'device_id' | 'name' | 'description' | 'namespace'>;

const toSummary = (r: SummaryRow): OneshotSummary => ({
  id: r.id,
  orgId: r.org_id,
  deviceId: r.device_id,
  name: r.name,
  description: r.description,
  namespace: r.namespace,
});

const toSubmission = (r: SubmissionRow): Submission => ({
  oneshotId: r.oneshot_id,
  orgId: r.org_id,
  deviceId: r.device_id,
  answers: JSON.parse(r.answers) as Record<string, unknown>,
  submittedAt: r.submitted_at,
});

const notOutstanding = (id: number) => new AppError('not_found', `Oneshot ${id} is not outstanding on this device`);
/** Oneshots and submissions are never deleted, so this is a bug, not a state. */
const recordedMissing = (id: number | undefined) => new Error(`Oneshot ${id}, recorded by an applied command, is missing`);
const defaultPageSize = 500;

export interface SqlitePushStoreOptions extends CommandWindowOptions {
  /** Rows per page of `streamOutstandingForOrganization` (500); tests make it small. */
  pageSize?: number;
}

/** A transition's result as recorded with its command id: the oneshots it is about, read again for a repeat. */
interface Recorded<T> {
  ids: (result: T) => number[];
  again: (oneshotIds: number[]) => T;
}

/**
 * The push store on SQLite (embedded mode). Each transition, its outbox row and its command
 * id (`applied_commands`) are one IMMEDIATE transaction, so a crash leaves all or none.
 */
export class SqlitePushStore implements PushStore {
  private readonly db: SqliteDatabase;
  private readonly sql: SqliteQueries;
  private readonly pageSize: number;
  private readonly commandWindow: CommandWindow;

  constructor(file: string, options: SqlitePushStoreOptions = {}) {
    this.db = openSqlite(file, pushMigrations);
    this.sql = new SqliteQueries(this.db);
    this.pageSize = options.pageSize ?? defaultPageSize;
    this.commandWindow = new CommandWindow(options);
  }

  async create(input: NewOneshot, event: OneshotEventFactory, commandId: string): Promise<Oneshot> {
    return this.once(commandId, this.sameOneshot(input.orgId), () => {
      const id = nextSqliteId(this.db, 'oneshots');
      const now = new Date().toISOString();
      this.sql.statement(
          `INSERT INTO oneshots (id, org_id, device_id, device_identifier, form_id, template_namespace, namespace,
             name, description, payload, state, created_at, updated_at)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'outstanding', ?, ?)`,
        )
        .run(id, input.orgId, input.deviceId, input.deviceIdentifier, input.formId, input.templateNamespace,
          input.namespace, input.name, input.description, JSON.stringify(input.payload), now, now);
      const oneshot = this.row(input.orgId, id)!;
      this.appendEvent(event(oneshot, this.outstandingCount(input.orgId, input.deviceId)));
      return oneshot;
    });
  }

  async update(orgId: number, deviceId: number, oneshotId: number, change: OneshotChange, event: OneshotEventFactory, commandId: string) {
    return this.once(commandId, this.sameOneshot(orgId), () => {
      const current = this.outstanding(orgId, deviceId, oneshotId);
      this.sql.statement('UPDATE oneshots SET payload = ?, name = ?, description = ?, updated_at = ? WHERE org_id = ? AND id = ?')
        .run(JSON.stringify(change.payload), change.name ?? current.name, change.description ?? current.description,
          new Date().toISOString(), orgId, oneshotId);
      const oneshot = this.row(orgId, oneshotId)!;
      this.appendEvent(event(oneshot, this.outstandingCount(orgId, deviceId)));
      return oneshot;
    });
  }

  async revoke(orgId: number, deviceId: number, oneshotId: number, event: OneshotEventFactory, commandId: string) {
    return this.once(commandId, this.sameOneshot(orgId), () => {
      this.outstanding(orgId, deviceId, oneshotId);
      return this.end(orgId, deviceId, oneshotId, 'revoked', event);
    });
  }

  async revokeAll(orgId: number, deviceId: number, event: OneshotEventFactory, commandId: string) {
    return this.once(commandId, this.sameOneshots(orgId), () => {
      const ids = this.sql.statement("SELECT id FROM oneshots WHERE org_id = ? AND device_id = ? AND state = 'outstanding' ORDER BY id")
        .pluck()
        .all(orgId, deviceId) as number[];
      return ids.map((id) => this.end(orgId, deviceId, id, 'revoked', event));
    });
  }

  async complete(
    orgId: number,
    deviceId: number,
    oneshotId: number,
    answers: Record<string, unknown>,
    event: OneshotEventFactory,
    commandId: string,
  ) {
    return this.once(commandId, this.sameSubmission(orgId), () => {
      const current = this.row(orgId, oneshotId);
      if (!current || current.deviceId !== deviceId) throw new AppError('not_found', `Oneshot ${oneshotId} does not exist`);
      if (current.state !== 'outstanding') throw new AppError('conflict', `Oneshot ${oneshotId} is ${current.state}; it can no longer be submitted`);
      const submittedAt = new Date().toISOString();
      this.sql.statement('INSERT INTO submissions (oneshot_id, org_id, device_id, answers, submitted_at) VALUES (?, ?, ?, ?, ?)')
        .run(oneshotId, orgId, deviceId, JSON.stringify(answers), submittedAt);
      this.end(orgId, deviceId, oneshotId, 'completed', event);
      return { oneshotId, orgId, deviceId, answers, submittedAt };
    });
  }

  async get(orgId: number, oneshotId: number) {
    return this.row(orgId, oneshotId);
  }

  async getSubmission(orgId: number, oneshotId: number) {
    const row = this.sql.statement('SELECT * FROM submissions WHERE org_id = ? AND oneshot_id = ?').get(orgId, oneshotId) as SubmissionRow | undefined;
    return row ? toSubmission(row) : null;
  }

  async listOutstandingForDevice(orgId: number, deviceId: number) {
    const rows = this.sql.statement("SELECT * FROM oneshots WHERE org_id = ? AND device_id = ? AND state = 'outstanding' ORDER BY id")
      .all(orgId, deviceId) as OneshotRow[];
    return rows.map(toOneshot);
  }

  async *streamOutstandingForOrganization(orgId: number, afterId = 0, limit = Infinity): AsyncIterable<OneshotSummary> {
    // Only the listed columns: reading and parsing every payload would double the cost of a long list.
    const page = this.sql.statement(
      `SELECT id, org_id, device_id, name, description, namespace FROM oneshots
       WHERE org_id = ? AND state = 'outstanding' AND id > ? ORDER BY id LIMIT ?`,
    );
    let after = afterId;
    let left = limit;
    while (left > 0) {
      const size = Math.min(this.pageSize, left);
      const rows = page.all(orgId, after, size) as SummaryRow[];
      for (const row of rows) yield toSummary(row);
      if (rows.length < size) return;
      after = rows[rows.length - 1]!.id;
      left -= rows.length;
    }
  }

  async unpublishedEvents(limit: number): Promise<OutboxEntry[]> {
    const rows = this.sql.statement('SELECT seq, event FROM outbox ORDER BY seq LIMIT ?').all(limit) as Array<{ seq: number; event: string }>;
    return rows.map((r) => ({ seq: r.seq, event: JSON.parse(r.event) as Envelope }));
  }

  async markPublished(seqs: number[]): Promise<void> {
    // Grouped with the writes of this turn: a commit of its own would cost as much as theirs.
    await this.sql.writeGrouped(() => this.sql.run('DELETE FROM outbox WHERE seq IN (SELECT value FROM json_each(?))', JSON.stringify(seqs)));
  }

  async ping(): Promise<void> {
    this.sql.statement('SELECT 1').get();
  }

  async close(): Promise<void> {
    if (this.db.open) this.db.close();
  }

  /**
   * `apply` in a transaction (grouped with the other writes of this turn), recorded under
   * `commandId`; or, when that id is recorded already, the first result again with nothing
   * written. The transaction is IMMEDIATE:
   * a duplicate in another process on the file waits for this one to commit, then finds
   * the record, so the primary key never has to refuse one (it is there should it have to).
   */
  private once<T>(commandId: string, recorded: Recorded<T>, apply: () => T): Promise<T> {
    return this.sql.writeGrouped(() => {
      const applied = this.sql.get<{ oneshot_ids: string }>('SELECT oneshot_ids FROM applied_commands WHERE command_id = ?', commandId);
      if (applied) return recorded.again(JSON.parse(applied.oneshot_ids) as number[]);
      const result = apply();
      this.sql.run(
        'INSERT INTO applied_commands (command_id, oneshot_ids, applied_at) VALUES (?, ?, ?)',
        commandId,
        JSON.stringify(recorded.ids(result)),
        this.commandWindow.now().toISOString(),
      );
      if (this.commandWindow.pruneDue()) this.forgetExpiredCommands();
      return result;
    });
  }

  private forgetExpiredCommands(): void {
    this.sql.run(
      `DELETE FROM applied_commands WHERE command_id IN
         (SELECT command_id FROM applied_commands WHERE applied_at < ? ORDER BY applied_at LIMIT ?)`,
      this.commandWindow.cutoff().toISOString(),
      this.commandWindow.pruneBatch,
    );
  }

  private sameOneshot(orgId: number): Recorded<Oneshot> {
    return { ids: (oneshot) => [oneshot.id], again: ([id]) => this.recordedOneshot(orgId, id) };
  }

  private sameOneshots(orgId: number): Recorded<Oneshot[]> {
    return {
      ids: (oneshots) => oneshots.map((oneshot) => oneshot.id),
      again: (ids) => ids.map((id) => this.recordedOneshot(orgId, id)),
    };
  }

  private sameSubmission(orgId: number): Recorded<Submission> {
    return {
      ids: (submission) => [submission.oneshotId],
      again: ([id]) => {
        const row = this.sql.get<SubmissionRow>('SELECT * FROM submissions WHERE org_id = ? AND oneshot_id = ?', orgId, id);
        if (!row) throw recordedMissing(id);
        return toSubmission(row);
      },
    };
  }

  private recordedOneshot(orgId: number, id: number | undefined): Oneshot {
    const oneshot = id === undefined ? null : this.row(orgId, id);
    if (!oneshot) throw recordedMissing(id);
    return oneshot;
  }

  private row(orgId: number, id: number): Oneshot | null {
    const row = this.sql.statement('SELECT * FROM oneshots WHERE org_id = ? AND id = ?').get(orgId, id) as OneshotRow | undefined;
    return row ? toOneshot(row) : null;
  }

  private outstanding(orgId: number, deviceId: number, id: number): Oneshot {
    const oneshot = this.row(orgId, id);
    if (!oneshot || oneshot.deviceId !== deviceId || oneshot.state !== 'outstanding') throw notOutstanding(id);
    return oneshot;
  }

  private end(orgId: number, deviceId: number, id: number, state: 'revoked' | 'completed', event: OneshotEventFactory): Oneshot {
    this.sql.statement('UPDATE oneshots SET state = ?, updated_at = ? WHERE org_id = ? AND id = ?').run(state, new Date().toISOString(), orgId, id);
    const oneshot = this.row(orgId, id)!;
    this.appendEvent(event(oneshot, this.outstandingCount(orgId, deviceId)));
    return oneshot;
  }

  private outstandingCount(orgId: number, deviceId: number): number {
    return this.sql.statement("SELECT COUNT(*) FROM oneshots WHERE org_id = ? AND device_id = ? AND state = 'outstanding'")
      .pluck()
      .get(orgId, deviceId) as number;
  }

  private appendEvent(event: Envelope): void {
    this.sql.statement('INSERT INTO outbox (event) VALUES (?)').run(JSON.stringify(event));
  }
}
