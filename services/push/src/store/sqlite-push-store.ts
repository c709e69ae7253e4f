import { closeSqlite, nextSqliteId, openSqlite, SqliteQueries, type SqliteDatabase } from '@formcast/storage';
import { SqliteIdempotencyStore, SqliteKeyTable, type IdempotencyStore } from '@formcast/idempotency';
import type { OneshotEventFactory } from '../domain/oneshot-events';
import type { DispatchPage, DispatchSummary, NewOneshot, Oneshot, OneshotSummary, Submission } from '../domain/records';
import type { SubmissionPage, SubmissionQuery } from '../domain/submission-query';
import type { SubmissionLoaded, SubmissionOutcome } from '../domain/submission-rules';
import { CommandWindow, type CommandWindowOptions } from './command-window';
import { oneshotWrites } from './oneshot-changes';
import type { CreateKey, DeviceRef, KeyedCreate, ListWindow, OutboxBacklog, OutboxEntry, PushStore, SubmissionEvents, SubmissionKey, SubmissionKeys, Transition } from './push-store';
import {
  answerOf,
  answerOneshot,
  answerOneshots,
  answerSubmission,
  recordedMissing,
  type RecordedAnswer,
  type WriteOutcome,
} from './recorded-answers';
import { pushMigrations } from './sqlite-migrations';
import { SqliteImageWaits } from './sqlite-image-waits';
import { SqlitePushOutbox } from './sqlite-push-outbox';
import { SqliteSubmissionReads } from './sqlite-submission-reads';
import { SqliteSubmissionImages } from './sqlite-submission-images';
import type { SubmissionImageStore } from './submission-image-store';

/** A record as its row holds it: the JSON columns as text. */
type Row<R, Json extends keyof R> = Omit<R, Json> & Record<Json, string>;

// Columns named as the record's fields, so a row is the record but for its JSON.
const oneshotColumns = `id, org_id AS orgId, device_id AS deviceId, device_identifier AS deviceIdentifier, form_id AS formId,
  template_namespace AS templateNamespace, namespace, name, description, payload, state, created_at AS createdAt, updated_at AS updatedAt,
  form_version AS formVersion, scheduled_at AS scheduledAt, released_at AS releasedAt, location, address, geofence_radius AS geofenceRadius`;
const dispatchColumns = oneshotColumns.replace(' payload,', '');
const summaryColumns = 'id, org_id AS orgId, device_id AS deviceId, name, description, namespace';

const toOneshot = ({ payload, ...fields }: Row<Oneshot, 'payload'>): Oneshot => ({ ...fields, payload: JSON.parse(payload) as Oneshot['payload'] });
const defaultPageSize = 500;

export interface SqlitePushStoreOptions extends CommandWindowOptions {
  /** Rows per page of `streamOutstandingForOrganization` (500); tests make it small. */
  pageSize?: number;
}

/**
 * The push store on SQLite (embedded mode). Each write, its outbox rows and its command id
 * (`applied_commands`) are one IMMEDIATE transaction, shared with the other writes of the
 * same turn of the event loop (`writeGrouped`), so a crash leaves all or none. The loads,
 * the transition and the saves run synchronously inside it. Idempotency-Keys are a table of
 * the same file (`idempotency_keys`, outside the numbered migrations), written in the same
 * grouped transactions: a keyed create costs no commit of its own.
 */
export class SqlitePushStore implements PushStore {
  private readonly db: SqliteDatabase;
  private readonly sql: SqliteQueries;
  private readonly pageSize: number;
  private readonly commandWindow: CommandWindow;
  private readonly keyTable: SqliteKeyTable;
  readonly keys: IdempotencyStore;
  readonly images: SubmissionImageStore;
  private readonly imageWaits: SqliteImageWaits;
  private readonly outbox: SqlitePushOutbox;
  private readonly submissions: SqliteSubmissionReads;

  constructor(file: string, options: SqlitePushStoreOptions = {}) {
    this.db = openSqlite(file, pushMigrations);
    this.sql = new SqliteQueries(this.db);
    this.pageSize = options.pageSize ?? defaultPageSize;
    this.commandWindow = new CommandWindow(options);
    this.keyTable = new SqliteKeyTable(this.sql);
    this.keys = new SqliteIdempotencyStore(this.sql);
    this.outbox = new SqlitePushOutbox(this.sql);
    this.submissions = new SqliteSubmissionReads(this.sql);
    this.imageWaits = new SqliteImageWaits(this.sql, (event) => this.outbox.append(event));
    this.images = new SqliteSubmissionImages(this.sql, this.imageWaits);
  }

  async create(oneshot: NewOneshot, event: OneshotEventFactory, commandId: string): Promise<Oneshot> {
    return this.once(commandId, answerOneshot(this, oneshot.orgId), () => this.insertOneshot(oneshot, event));
  }

  async createKeyed(oneshot: NewOneshot, event: OneshotEventFactory, key: CreateKey): Promise<KeyedCreate> {
    return this.sql.writeGrouped((): KeyedCreate => {
      const decision = this.keyTable.decide(key);
      if (decision.write === 'none') return { found: decision.outcome };
      // No applied command recorded: the key's record, written here, is what a delivery of the
      // command again finds. Only a claim taken over may have been applied, under its own id.
      const created = decision.outcome.kind === 'stale' ? this.createdUnder(decision.outcome.commandId, oneshot, event) : this.insertOneshot(oneshot, event);
      this.keyTable.write(key, decision, { ok: true, value: key.answer(created) });
      return { created };
    });
  }

  async change(orgId: number, oneshotId: number, transition: Transition<Oneshot | null, Oneshot>, event: OneshotEventFactory, commandId: string) {
    return this.once(commandId, answerOneshot(this, orgId), () => {
      const current = this.load(orgId, oneshotId);
      const changed = transition(current);
      this.save([current], [changed], event);
      return changed;
    });
  }

  async changeOutstanding(
    orgId: number,
    deviceId: number,
    transition: Transition<Oneshot[], Oneshot[]>,
    event: OneshotEventFactory,
    commandId: string,
    limit?: number,
  ) {
    return this.once(commandId, answerOneshots(this, orgId), () => {
      const outstanding = this.loadOutstanding(orgId, deviceId, { releasedOnly: false, limit });
      const changed = transition(outstanding);
      this.save(outstanding, changed, event);
      return changed;
    });
  }

  async release(oneshotIds: number[], transition: Transition<Oneshot[], Oneshot[]>, event: OneshotEventFactory): Promise<Oneshot[]> {
    if (oneshotIds.length === 0) return [];
    return this.sql.writeGrouped(() => {
      const rows = this.sql.all<Row<Oneshot, 'payload'>>(
        `SELECT ${oneshotColumns} FROM oneshots WHERE id IN (SELECT value FROM json_each(?)) ORDER BY id`,
        JSON.stringify(oneshotIds),
      );
      const loaded = rows.map(toOneshot);
      const released = transition(loaded);
      this.save(loaded, released, event);
      return released;
    });
  }

  async submit(keys: SubmissionKeys, transition: Transition<SubmissionLoaded, SubmissionOutcome>, events: SubmissionEvents, commandId: string) {
    return this.once(commandId, answerSubmission(this, keys.orgId), () => {
      const { orgId, deviceId, oneshotId, clientSubmissionId } = keys;
      const oneshot = oneshotId === null ? null : this.load(orgId, oneshotId);
      const earlier = clientSubmissionId === null ? null : this.submissions.find(orgId, { deviceId, clientSubmissionId });
      const outcome = transition({ oneshot, earlier });
      if ('repeated' in outcome) return outcome.repeated;
      const submission: Submission = { id: nextSqliteId(this.db, 'submissions'), ...outcome.submission };
      this.sql.run(
        `INSERT INTO form_submissions (id, org_id, device_id, device_identifier, device_owner, form_id, form_namespace, form_name,
           form_version, oneshot_id, client_submission_id, answers, submitted_at, received_at)
         VALUES (@id, @orgId, @deviceId, @deviceIdentifier, @deviceOwner, @formId, @formNamespace, @formName,
           @formVersion, @oneshotId, @clientSubmissionId, @answers, @submittedAt, @receivedAt)`,
        { ...submission, answers: JSON.stringify(submission.answers) },
      );
      if (outcome.completed) this.save([oneshot], [outcome.completed], events.completed);
      this.imageWaits.announceOrHold(submission, events.received(submission), events.namedImages ?? []);
      return submission;
    });
  }

  async get(orgId: number, oneshotId: number) {
    return this.load(orgId, oneshotId);
  }

  async getSubmission(orgId: number, submissionId: number) {
    return this.submissions.get(orgId, submissionId);
  }

  async getSubmissions(orgId: number, submissionIds: number[]): Promise<Submission[]> {
    return this.submissions.getMany(orgId, submissionIds);
  }

  async findSubmission(orgId: number, key: SubmissionKey) {
    return this.submissions.find(orgId, key);
  }

  async listSubmissions(orgId: number, query: SubmissionQuery): Promise<SubmissionPage<Submission>> {
    return this.submissions.list(orgId, query);
  }

  async listOutstandingForDevice(orgId: number, deviceId: number, window?: ListWindow) {
    if (!window) return this.loadOutstanding(orgId, deviceId, { releasedOnly: true });
    const where = `org_id = ? AND device_id = ? AND state = 'outstanding' AND released_at IS NOT NULL AND id > ?`;
    const after = this.idAfterOffset(where, [orgId, deviceId], window);
    if (after === null) return [];
    const rows = this.sql.all<Row<Oneshot, 'payload'>>(
      `SELECT ${oneshotColumns} FROM oneshots WHERE ${where} ORDER BY id LIMIT ?`,
      orgId,
      deviceId,
      after,
      window.limit ?? -1,
    );
    return rows.map(toOneshot);
  }

  /** `window.afterId` moved past `window.offset` rows matching `where` (its last parameter the id); null when there are not that many. */
  private idAfterOffset(where: string, parameters: unknown[], window: ListWindow): number | null {
    const after = window.afterId ?? 0;
    if (!window.offset) return after;
    const row = this.sql.get<{ id: number }>(`SELECT id FROM oneshots WHERE ${where} ORDER BY id LIMIT 1 OFFSET ?`, ...parameters, after, window.offset - 1);
    return row ? row.id : null;
  }

  async listDue(now: string, limit: number): Promise<DispatchSummary[]> {
    return this.sql.all<DispatchSummary>(
      `SELECT ${dispatchColumns} FROM oneshots WHERE released_at IS NULL AND state = 'outstanding' AND scheduled_at <= ?
       ORDER BY scheduled_at, id LIMIT ?`,
      now,
      limit,
    );
  }

  async listDispatches(orgId: number, deviceId: number | null, offset: number, limit: number): Promise<DispatchPage> {
    const where = `org_id = @orgId AND state = 'outstanding'${deviceId === null ? '' : ' AND device_id = @deviceId'}`;
    const parameters = { orgId, deviceId, offset, limit };
    // Both reads at one instant: the count and the page see the same dispatches.
    return this.sql.read(() => {
      const { total } = this.sql.get<{ total: number }>(`SELECT count(*) AS total FROM oneshots WHERE ${where}`, parameters)!;
      const dispatches = this.sql.all<DispatchSummary>(`SELECT ${dispatchColumns} FROM oneshots WHERE ${where} ORDER BY id LIMIT @limit OFFSET @offset`, parameters);
      return { total, dispatches };
    });
  }

  async countOutstanding(orgId: number, deviceId: number): Promise<number> {
    // Kept by triggers (migration 9): one row, not a count of the device's outstanding ones.
    return this.sql.get<{ total: number }>('SELECT total FROM outstanding_per_device WHERE org_id = ? AND device_id = ?', orgId, deviceId)?.total ?? 0;
  }

  async devicesWithOutstanding(after: DeviceRef | undefined, limit: number): Promise<DeviceRef[]> {
    const start = after ?? { orgId: -1, deviceId: -1 };
    // The trigger-kept counts (migration 9), on their primary key: no oneshot row is read.
    return this.sql.all<DeviceRef>(
      `SELECT org_id AS orgId, device_id AS deviceId FROM outstanding_per_device
       WHERE total > 0 AND (org_id, device_id) > (?, ?) ORDER BY org_id, device_id LIMIT ?`,
      start.orgId,
      start.deviceId,
      limit,
    );
  }

  async formsWithOutstanding(orgId: number): Promise<number[]> {
    // The organization's outstanding ones (oneshots_org_state), their form read from the row.
    return this.sql
      .all<{ formId: number }>("SELECT DISTINCT form_id AS formId FROM oneshots WHERE org_id = ? AND state = 'outstanding' ORDER BY form_id", orgId)
      .map((row) => row.formId);
  }

  async devicesWithOutstandingOfForm(orgId: number, formId: number): Promise<number[]> {
    // The organization's outstanding ones (oneshots_org_state), their form read from the row.
    return this.sql
      .all<{ deviceId: number }>(
        "SELECT DISTINCT device_id AS deviceId FROM oneshots WHERE org_id = ? AND state = 'outstanding' AND form_id = ? ORDER BY device_id",
        orgId,
        formId,
      )
      .map((row) => row.deviceId);
  }

  async *streamOutstandingForOrganization(orgId: number, afterId = 0, limit = Infinity, offset = 0): AsyncIterable<OneshotSummary> {
    // Only the listed columns: reading and parsing every payload would double the cost of a long list.
    const where = `org_id = ? AND state = 'outstanding' AND released_at IS NOT NULL AND id > ?`;
    const page = this.sql.statement(`SELECT ${summaryColumns} FROM oneshots WHERE ${where} ORDER BY id LIMIT ?`);
    const start = this.idAfterOffset(where, [orgId], { afterId, offset });
    if (start === null) return;
    let after = start;
    let left = limit;
    while (left > 0) {
      const size = Math.min(this.pageSize, left);
      const rows = page.all(orgId, after, size) as OneshotSummary[];
      yield* rows;
      if (rows.length < size) return;
      after = rows[rows.length - 1]!.id;
      left -= rows.length;
    }
  }

  async unpublishedEvents(limit: number): Promise<OutboxEntry[]> {
    return this.outbox.unpublished(limit);
  }

  async markPublished(seqs: number[]): Promise<void> {
    await this.outbox.markPublished(seqs);
  }

  async outboxBacklog(): Promise<OutboxBacklog> {
    return this.outbox.backlog();
  }

  async ping(): Promise<void> {
    this.sql.statement('SELECT 1').get();
  }

  async close(): Promise<void> {
    await closeSqlite(this.db);
  }

  /**
   * `write` in a transaction (grouped with the other writes of this turn), recorded under
   * `commandId`; or, when that id is recorded already, the first answer again with nothing
   * written. The transaction is IMMEDIATE: a duplicate in another process on the file waits
   * for this one to commit, then finds the record, so the primary key never has to refuse
   * one (it is there should it have to).
   */
  private async once<T>(commandId: string, recorded: RecordedAnswer<T>, write: () => T): Promise<T> {
    const outcome = await this.sql.writeGrouped((): WriteOutcome<T> => {
      const appliedBefore = this.appliedIds(commandId);
      if (appliedBefore) return { appliedBefore };
      const answer = write();
      this.recordCommand(commandId, recorded.ids(answer));
      return { answer };
    });
    return answerOf(outcome, recorded);
  }

  /** The oneshot the command created: now, or by an earlier delivery (read again). */
  private createdUnder(commandId: string, oneshot: NewOneshot, event: OneshotEventFactory): Oneshot {
    const [appliedId] = this.appliedIds(commandId) ?? [];
    if (appliedId !== undefined) return this.load(oneshot.orgId, appliedId) ?? throwMissing(appliedId);
    const created = this.insertOneshot(oneshot, event);
    this.recordCommand(commandId, [created.id]);
    return created;
  }

  /** The ids a command applied already recorded, or null. */
  private appliedIds(commandId: string): number[] | null {
    const applied = this.sql.get<{ oneshot_ids: string }>('SELECT oneshot_ids FROM applied_commands WHERE command_id = ?', commandId);
    return applied ? (JSON.parse(applied.oneshot_ids) as number[]) : null;
  }

  private insertOneshot(oneshot: NewOneshot, event: OneshotEventFactory): Oneshot {
    const created: Oneshot = { id: nextSqliteId(this.db, 'oneshots'), ...oneshot };
    this.sql.run(
      `INSERT INTO oneshots (id, org_id, device_id, device_identifier, form_id, template_namespace, namespace,
         name, description, payload, state, created_at, updated_at, form_version, scheduled_at, released_at, location, address, geofence_radius)
       VALUES (@id, @orgId, @deviceId, @deviceIdentifier, @formId, @templateNamespace, @namespace,
         @name, @description, @payload, @state, @createdAt, @updatedAt, @formVersion, @scheduledAt, @releasedAt, @location, @address, @geofenceRadius)`,
      { ...created, payload: JSON.stringify(created.payload) },
    );
    this.outbox.append(event(created));
    return created;
  }

  private recordCommand(commandId: string, oneshotIds: number[]): void {
    const appliedAt = this.commandWindow.now().toISOString();
    this.sql.run('INSERT INTO applied_commands (command_id, oneshot_ids, applied_at) VALUES (?, ?, ?)', commandId, JSON.stringify(oneshotIds), appliedAt);
    if (!this.commandWindow.pruneDue()) return;
    this.sql.run(
      `DELETE FROM applied_commands WHERE command_id IN
         (SELECT command_id FROM applied_commands WHERE applied_at < ? ORDER BY applied_at LIMIT ?)`,
      this.commandWindow.cutoff().toISOString(),
      this.commandWindow.pruneBatch,
    );
  }

  private load(orgId: number, id: number): Oneshot | null {
    const row = this.sql.get<Row<Oneshot, 'payload'>>(`SELECT ${oneshotColumns} FROM oneshots WHERE org_id = ? AND id = ?`, orgId, id);
    return row ? toOneshot(row) : null;
  }

  /** `releasedOnly`: those the device knows of (not the dispatches scheduled for later); `limit`: the first that many. */
  private loadOutstanding(orgId: number, deviceId: number, { releasedOnly, limit }: { releasedOnly: boolean; limit?: number | undefined }): Oneshot[] {
    const rows = this.sql.all<Row<Oneshot, 'payload'>>(
      `SELECT ${oneshotColumns} FROM oneshots WHERE org_id = ? AND device_id = ? AND state = 'outstanding'
       ${releasedOnly ? 'AND released_at IS NOT NULL' : ''} ORDER BY id LIMIT ?`,
      orgId,
      deviceId,
      limit ?? -1,
    );
    return rows.map(toOneshot);
  }

  /** The oneshots a transition returned, given those it was handed, each with its event. */
  private save(loaded: Array<Oneshot | null>, changed: Oneshot[], event: OneshotEventFactory): void {
    for (const { oneshot, changes } of oneshotWrites(loaded, changed)) {
      this.sql.run(
        `UPDATE oneshots SET name = @name, description = @description, payload = coalesce(@payload, payload), state = @state,
           updated_at = @updatedAt, scheduled_at = @scheduledAt, released_at = @releasedAt, location = @location, address = @address,
           geofence_radius = @geofenceRadius
         WHERE org_id = @orgId AND id = @id`,
        { ...changes, payload: changes.payload === undefined ? null : JSON.stringify(changes.payload), orgId: oneshot.orgId, id: oneshot.id },
      );
      this.outbox.append(event(oneshot));
    }
  }

  onEventCommitted(listener: (entry: OutboxEntry) => void): void {
    this.outbox.onCommitted(listener);
  }
}

function throwMissing(oneshotId: number): never {
  throw recordedMissing('Oneshot', oneshotId);
}

