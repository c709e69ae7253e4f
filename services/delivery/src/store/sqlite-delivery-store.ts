import { randomUUID } from 'node:crypto';
import { closeSqlite, nextSqliteId, type SqliteDatabase, SqliteQueries, storeDatabase } from '@formcast/storage';
import type { AttemptOutcome, DestinationHealthChange } from '../domain/attempt-outcome';
import type { DueCandidate, InFlight } from '../domain/fair-selection';
import type { DeliveryMetric, MetricCursor } from '../domain/performance-metrics';
import type { Delivery, DeliveryDocument, DeliveryWithAttempts, Destination, DestinationChange, NewDelivery, NewDestination } from '../domain/records';
import { rotateSecrets } from '../domain/signing-secrets';
import { attemptsKeptPerDelivery, type ClaimedDelivery, type DeliveryLogPage, type DeliveryStore, type NewAttempt, type PageRequest } from './delivery-store';
import { deliveryMigrations } from './sqlite-migrations';
import { needSealing, openSigningSecrets, sealSigningSecrets, sealTransport, type SecretCipher } from '../secrets';
import { storedSecrets, toAttempt, toDelivery, toDestination, type AttemptRow, type DeliveryRow, type DestinationRow } from './sqlite-delivery-rows';
import { deliveryNotFound, destinationNotFound } from './store-errors';

/**
 * The delivery store on SQLite (embedded mode). better-sqlite3 is synchronous, so each
 * method runs to completion before another starts; writes still go through IMMEDIATE
 * transactions, so a second process on the same file never interleaves with them, and
 * leases work across processes as they do across MongoDB replicas.
 */
export class SqliteDeliveryStore implements DeliveryStore {
  private readonly db: SqliteDatabase;
  private readonly sql: SqliteQueries;

  /**
   * Takes a database file (created with its folder if missing), `':memory:'`, or a database
   * already opened with `openSqlite`; brings its schema up to date. The store owns the
   * database from then on: `close()` closes it.
   */
  constructor(
    database: SqliteDatabase | string,
    /** Seals signing secrets on writing, opens them on reading. */
    private readonly cipher: SecretCipher,
  ) {
    this.db = storeDatabase(database, deliveryMigrations);
    this.sql = new SqliteQueries(this.db);
  }

  // Destinations ------------------------------------------------------------------------

  async listDestinations(orgId: number, formId: number): Promise<Destination[]> {
    return this.sql
      .all<DestinationRow>('SELECT * FROM destinations WHERE org_id = ? AND form_id = ? ORDER BY id', orgId, formId)
      .map((row) => toDestination(row, this.cipher));
  }

  async getDestination(orgId: number, formId: number, destinationId: number): Promise<Destination | null> {
    const row = this.destinationRow(orgId, formId, destinationId);
    return row ? toDestination(row, this.cipher) : null;
  }

  async createDestination(input: NewDestination, commandId: string): Promise<Destination> {
    return this.sql.write(() => {
      const done = this.sql.get<DestinationRow>('SELECT * FROM destinations WHERE org_id = ? AND command_id = ?', input.orgId, commandId);
      if (done) return toDestination(done, this.cipher);
      const id = nextSqliteId(this.db, 'destinations');
      const at = new Date().toISOString();
      const sealed = sealSigningSecrets(this.cipher, input.secrets);
      this.sql.run(
        `INSERT INTO destinations (id, org_id, form_id, description, active, format, format_parameters, format_updated_at, transport_type,
                                   transport_parameters, transport_updated_at, secret, retired_secrets, command_id, created_at, updated_at)
         VALUES (?, ?, ?, ?, 1, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        id,
        input.orgId,
        input.formId,
        input.description,
        input.format,
        JSON.stringify(input.formatParameters),
        at,
        input.transport.type,
        JSON.stringify(sealTransport(this.cipher, input.transport).parameters),
        at,
        sealed.current,
        JSON.stringify(sealed.retired),
        commandId,
        at,
        at,
      );
      return this.requireDestination(input.orgId, input.formId, id);
    });
  }

  async updateDestination(orgId: number, formId: number, destinationId: number, change: DestinationChange): Promise<Destination> {
    return this.sql.write(() => {
      const current = this.requireDestination(orgId, formId, destinationId);
      const now = Date.now();
      const at = new Date(now).toISOString();
      if (change.description !== undefined) {
        this.sql.run('UPDATE destinations SET description = ? WHERE id = ?', change.description, destinationId);
      }
      if (change.transport) {
        const parameters = JSON.stringify(sealTransport(this.cipher, change.transport).parameters);
        this.sql.run('UPDATE destinations SET transport_parameters = ?, transport_updated_at = ? WHERE id = ?', parameters, at, destinationId);
      }
      if (change.formatParameters) {
        this.sql.run('UPDATE destinations SET format_parameters = ?, format_updated_at = ? WHERE id = ?', JSON.stringify(change.formatParameters), at, destinationId);
      }
      if (change.active === true && !current.active) {
        this.sql.run(
          `UPDATE destinations SET active = 1, deactivated_reason = NULL, deactivated_at = NULL, failing_since = NULL WHERE id = ?`,
          destinationId,
        );
        this.sql.run(
          `UPDATE deliveries SET next_attempt_at = ? WHERE destination_id = ? AND status = 'pending' AND next_attempt_at IS NULL`,
          now,
          destinationId,
        );
      } else if (change.active === false && current.active) {
        this.deactivate(destinationId, null, at);
      }
      this.sql.run('UPDATE destinations SET updated_at = ? WHERE id = ?', at, destinationId);
      return this.requireDestination(orgId, formId, destinationId);
    });
  }

  async rotateSecret(orgId: number, formId: number, destinationId: number, overlapMs: number, commandId: string): Promise<Destination> {
    return this.sql.write(() => {
      const row = this.destinationRow(orgId, formId, destinationId);
      if (!row) throw destinationNotFound(destinationId);
      if (row.rotation_command_id === commandId) return toDestination(row, this.cipher);
      const now = Date.now();
      const secrets = sealSigningSecrets(this.cipher, rotateSecrets(toDestination(row, this.cipher).secrets, now, overlapMs));
      this.sql.run(
        'UPDATE destinations SET secret = ?, retired_secrets = ?, rotation_command_id = ?, updated_at = ? WHERE id = ?',
        secrets.current,
        JSON.stringify(secrets.retired),
        commandId,
        new Date(now).toISOString(),
        destinationId,
      );
      return this.requireDestination(orgId, formId, destinationId);
    });
  }

  async deleteDestination(orgId: number, formId: number, destinationId: number): Promise<void> {
    this.sql.write(() => {
      // Its deliveries and their attempts go with it (ON DELETE CASCADE).
      const deleted = this.sql.run('DELETE FROM destinations WHERE org_id = ? AND form_id = ? AND id = ?', orgId, formId, destinationId);
      if (deleted === 0) throw destinationNotFound(destinationId);
    });
  }

  async deleteFormDestinations(orgId: number, formId: number): Promise<number> {
    const destinationIds = this.sql
      .all<{ id: number }>('SELECT id FROM destinations WHERE org_id = ? AND form_id = ?', orgId, formId)
      .map((row) => row.id);
    if (destinationIds.length === 0) return 0;
    // The deliveries first, a batch a transaction (a form's log may be long), then the
    // destinations, which take whatever came meanwhile with them (ON DELETE CASCADE).
    const ids = JSON.stringify(destinationIds);
    while (
      this.sql.write(() =>
        this.sql.run(
          `DELETE FROM deliveries WHERE id IN (
             SELECT id FROM deliveries WHERE destination_id IN (SELECT value FROM json_each(?)) LIMIT ?)`,
          ids,
          deleteBatch,
        ),
      ) === deleteBatch
    ) {
      await yieldToEventLoop();
    }
    return this.sql.write(() =>
      this.sql.run('DELETE FROM destinations WHERE org_id = ? AND form_id = ? AND id IN (SELECT value FROM json_each(?))', orgId, formId, ids),
    );
  }

  async activeDestinations(orgId: number, formId: number): Promise<Destination[]> {
    return this.sql
      .all<DestinationRow>('SELECT * FROM destinations WHERE org_id = ? AND form_id = ? AND active = 1 ORDER BY id', orgId, formId)
      .map((row) => toDestination(row, this.cipher));
  }

  // Deliveries --------------------------------------------------------------------------

  async createDeliveries(deliveries: NewDelivery[], now: number): Promise<number> {
    if (deliveries.length === 0) return 0;
    return this.sql.writeGrouped(() => {
      const at = new Date(now).toISOString();
      let created = 0;
      for (const delivery of deliveries) {
        // One per destination and submission (its UNIQUE): a repeat of the event inserts
        // nothing, without a look first (issue 24). Its id is then left unused.
        created += this.sql.run(
          `INSERT INTO deliveries (id, org_id, form_id, destination_id, submission_id, webhook_id, content_type, body,
                                   status, schedule_step, next_attempt_at, created_at, updated_at)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'pending', 0, ?, ?, ?)
           ON CONFLICT (destination_id, submission_id) DO NOTHING`,
          nextSqliteId(this.db, 'deliveries'),
          delivery.orgId,
          delivery.formId,
          delivery.destinationId,
          delivery.submissionId,
          delivery.webhookId,
          delivery.contentType,
          delivery.body,
          now,
          at,
          at,
        );
      }
      return created;
    });
  }

  async dueDeliveries(now: number, perDestination: number, limit: number): Promise<DueCandidate[]> {
    // Mostly few are due (a stream is taken as it comes): all of them, in the due index's
    // order, cut per destination here. Only when there are `limit` or more does SQLite rank
    // them per destination, so that one destination's backlog does not fill the candidates
    // (the ranking cost ~60 µs a pass, this ~10).
    const due = this.sql.all<{ id: number; org_id: number; destination_id: number }>(
      `SELECT d.id, d.org_id, d.destination_id
       FROM deliveries d JOIN destinations t ON t.id = d.destination_id
       WHERE d.status = 'pending' AND d.next_attempt_at <= ? AND d.claimed_until <= ? AND t.active = 1
       ORDER BY d.next_attempt_at, d.id
       LIMIT ?`,
      now,
      now,
      limit,
    );
    const rows = due.length < limit ? firstOfEachDestination(due, perDestination) : this.dueRankedPerDestination(now, perDestination, limit);
    return rows.map((row) => ({ id: row.id, orgId: row.org_id, destinationId: row.destination_id }));
  }

  async inFlight(now: number): Promise<InFlight> {
    const rows = this.sql.all<{ org_id: number; destination_id: number; n: number }>(
      `SELECT org_id, destination_id, COUNT(*) AS n FROM deliveries
       WHERE status = 'pending' AND claimed_until > ? GROUP BY org_id, destination_id`,
      now,
    );
    const inFlight: InFlight = { byDestination: new Map(), byOrganization: new Map() };
    for (const row of rows) {
      inFlight.byDestination.set(row.destination_id, row.n);
      inFlight.byOrganization.set(row.org_id, (inFlight.byOrganization.get(row.org_id) ?? 0) + row.n);
    }
    return inFlight;
  }

  async claim(ids: number[], now: number, leaseUntil: number): Promise<ClaimedDelivery[]> {
    if (ids.length === 0) return [];
    const claimToken = randomUUID();
    // One statement for the lot. Committed at once, not with the turn's other writes: an
    // attempt holds its destination's slot from its claim, and waiting a turn of a busy
    // event loop there slowed S6 (p50 20 -> 73 ms in embedded mode, the 8 slots full).
    return this.sql.write(() => {
      const rows = this.sql.all<DeliveryRow>(
        `UPDATE deliveries SET claimed_until = ?, claim_token = ?
         WHERE id IN (SELECT value FROM json_each(?)) AND status = 'pending' AND next_attempt_at <= ? AND claimed_until <= ?
         RETURNING *`,
        leaseUntil,
        claimToken,
        JSON.stringify(ids),
        now,
        now,
      );
      const leased = new Map(rows.map((row) => [row.id, row]));
      const destinations = new Map<number, Destination>();
      const claimed: ClaimedDelivery[] = [];
      // In the order asked for: the fair order.
      for (const id of ids) {
        const row = leased.get(id);
        if (!row) continue;
        let destination = destinations.get(row.destination_id);
        if (!destination) {
          destination = toDestination(this.sql.get<DestinationRow>('SELECT * FROM destinations WHERE id = ?', row.destination_id)!, this.cipher);
          destinations.set(row.destination_id, destination);
        }
        claimed.push({ delivery: toDelivery(row), destination, claimToken });
      }
      return claimed;
    });
  }

  async holdLease(claim: { deliveryId: number; claimToken: string }, leaseUntil: number): Promise<boolean> {
    return this.sql.write(
      () =>
        this.sql.run(
          `UPDATE deliveries SET claimed_until = MAX(claimed_until, ?) WHERE id = ? AND claim_token = ? AND status = 'pending'`,
          leaseUntil,
          claim.deliveryId,
          claim.claimToken,
        ) > 0,
    );
  }

  async recordAttempt(claim: { deliveryId: number; claimToken: string }, attempt: NewAttempt, outcome: AttemptOutcome): Promise<void> {
    await this.sql.writeGrouped(() => {
      const delivery = this.sql.get<{ destination_id: number }>('SELECT destination_id FROM deliveries WHERE id = ?', claim.deliveryId);
      if (!delivery) return; // deleted with its destination meanwhile
      this.sql.run(
        `INSERT INTO delivery_attempts (delivery_id, attempted_at, status_code, duration_ms, response_body, error) VALUES (?, ?, ?, ?, ?, ?)`,
        claim.deliveryId,
        attempt.attemptedAt,
        attempt.statusCode,
        attempt.durationMs,
        attempt.responseBody,
        attempt.error,
      );
      this.sql.run(
        `DELETE FROM delivery_attempts WHERE delivery_id = ? AND id <= (
           SELECT id FROM delivery_attempts WHERE delivery_id = ? ORDER BY id DESC LIMIT 1 OFFSET ?)`,
        claim.deliveryId,
        claim.deliveryId,
        attemptsKeptPerDelivery,
      );
      this.sql.run(
        `UPDATE deliveries SET status = ?, next_attempt_at = ?, schedule_step = schedule_step + ?, claimed_until = 0,
                               claim_token = NULL, updated_at = ?
         WHERE id = ? AND claim_token = ?`,
        outcome.status,
        outcome.nextAttemptAt,
        outcome.deferred ? 0 : 1,
        attempt.attemptedAt,
        claim.deliveryId,
        claim.claimToken,
      );
      this.applyHealth(delivery.destination_id, outcome.health);
    });
  }

  async listDeliveries(orgId: number, formId: number, destinationId: number, page: PageRequest): Promise<DeliveryLogPage> {
    return this.sql.read(() => {
      if (!this.destinationRow(orgId, formId, destinationId)) throw destinationNotFound(destinationId);
      const { total } = this.sql.get<{ total: number }>('SELECT COUNT(*) AS total FROM deliveries WHERE destination_id = ?', destinationId)!;
      const rows = this.sql.all<DeliveryRow>(
        'SELECT * FROM deliveries WHERE destination_id = ? ORDER BY id DESC LIMIT ? OFFSET ?',
        destinationId,
        page.limit,
        page.offset,
      );
      return { total, deliveries: rows.map((row) => this.withAttempts(row)) };
    });
  }

  async redeliver(orgId: number, formId: number, destinationId: number, deliveryId: number, now: number): Promise<DeliveryWithAttempts> {
    return this.sql.write(() => {
      const destination = this.requireDestination(orgId, formId, destinationId);
      const row = this.sql.get<DeliveryRow>(
        `UPDATE deliveries SET status = 'pending', schedule_step = 0, next_attempt_at = ?, claimed_until = 0, claim_token = NULL,
                               updated_at = ?
         WHERE id = ? AND destination_id = ?
         RETURNING *`,
        destination.active ? now : null,
        new Date(now).toISOString(),
        deliveryId,
        destinationId,
      );
      if (!row) throw deliveryNotFound(deliveryId);
      return this.withAttempts(row);
    });
  }

  async performanceMetrics(orgId: number, range: { from: string; to: string }, after: MetricCursor | null, limit: number): Promise<DeliveryMetric[]> {
    // deliveries_by_org_time serves the range and the order; the rest is per row, by key.
    const rows = this.sql.all<MetricRow>(
      `SELECT d.id AS deliveryId, d.form_id AS formId, d.destination_id AS destinationId, dest.description AS destinationDescription,
              dest.active AS destinationActive, dest.format AS format, dest.transport_type AS transportType,
              d.submission_id AS submissionId, d.status AS status, d.created_at AS createdAt,
              length(CAST(d.body AS BLOB)) AS bodyBytes,
              (SELECT length(doc.bytes) FROM delivery_documents doc WHERE doc.delivery_id = d.id) AS documentBytes,
              (SELECT json_object('attemptedAt', a.attempted_at, 'durationMs', a.duration_ms) FROM delivery_attempts a
                WHERE a.delivery_id = d.id ORDER BY a.id DESC LIMIT 1) AS lastAttempt
       FROM deliveries d JOIN destinations dest ON dest.id = d.destination_id
       WHERE d.org_id = ? AND d.created_at >= ? AND d.created_at < ? AND (d.created_at, d.id) > (?, ?)
       ORDER BY d.created_at, d.id LIMIT ?`,
      orgId,
      range.from,
      range.to,
      after?.createdAt ?? '',
      after?.deliveryId ?? 0,
      limit,
    );
    return rows.map((row) => ({
      ...row,
      destinationActive: row.destinationActive === 1,
      lastAttempt: row.lastAttempt === null ? null : (JSON.parse(row.lastAttempt) as DeliveryMetric['lastAttempt']),
    }));
  }

  async recordBounces(orgId: number, addresses: string[], reason: string, at: string): Promise<void> {
    if (addresses.length === 0) return;
    this.sql.write(() => {
      for (const address of new Set(addresses.map((a) => a.toLowerCase()))) {
        this.sql.run(
          `INSERT INTO bounced_addresses (org_id, address, bounced_at, reason) VALUES (?, ?, ?, ?)
           ON CONFLICT (org_id, address) DO UPDATE SET bounced_at = excluded.bounced_at, reason = excluded.reason`,
          orgId,
          address,
          at,
          reason.slice(0, 1024),
        );
      }
    });
  }

  async bouncedAmong(orgId: number, addresses: string[], since: string): Promise<string[]> {
    if (addresses.length === 0) return [];
    const rows = this.sql.all<{ address: string }>(
      'SELECT address FROM bounced_addresses WHERE org_id = ? AND address IN (SELECT value FROM json_each(?)) AND bounced_at >= ?',
      orgId,
      JSON.stringify(addresses.map((a) => a.toLowerCase())),
      since,
    );
    const bounced = new Set(rows.map((row) => row.address));
    return addresses.filter((address) => bounced.has(address.toLowerCase()));
  }

  async sweepEnded(endedBefore: number, limit: number): Promise<number> {
    // Their attempts go with them (ON DELETE CASCADE).
    return this.sql.write(() =>
      this.sql.run(
        `DELETE FROM deliveries WHERE id IN (
           SELECT id FROM deliveries WHERE status <> 'pending' AND updated_at < ? ORDER BY updated_at LIMIT ?)`,
        new Date(endedBefore).toISOString(),
        limit,
      ),
    );
  }

  async saveDocument(deliveryId: number, document: DeliveryDocument): Promise<DeliveryDocument> {
    return this.sql.write(() => {
      this.sql.run(
        `INSERT INTO delivery_documents (delivery_id, message, content_type, file_name, bytes, created_at) VALUES (?, ?, ?, ?, ?, ?)
         ON CONFLICT (delivery_id) DO NOTHING`,
        deliveryId,
        JSON.stringify(document.message),
        document.contentType,
        document.fileName,
        document.bytes,
        document.createdAt,
      );
      return this.documentRow(deliveryId)!;
    });
  }

  async getDocument(deliveryId: number): Promise<DeliveryDocument | null> {
    return this.documentRow(deliveryId);
  }

  async getDelivery(orgId: number, formId: number, destinationId: number, deliveryId: number): Promise<Delivery> {
    this.requireDestination(orgId, formId, destinationId);
    const row = this.sql.get<DeliveryRow>('SELECT * FROM deliveries WHERE id = ? AND destination_id = ?', deliveryId, destinationId);
    if (!row) throw deliveryNotFound(deliveryId);
    return toDelivery(row);
  }

  private documentRow(deliveryId: number): DeliveryDocument | null {
    const row = this.sql.get<{ message: string; content_type: string; file_name: string; bytes: Buffer; created_at: string }>(
      'SELECT message, content_type, file_name, bytes, created_at FROM delivery_documents WHERE delivery_id = ?',
      deliveryId,
    );
    if (!row) return null;
    return { message: JSON.parse(row.message), contentType: row.content_type, fileName: row.file_name, bytes: row.bytes, createdAt: row.created_at };
  }

  async sealSecrets(): Promise<number> {
    return this.sql.write(() => {
      let sealed = 0;
      for (const row of this.sql.all<DestinationRow>('SELECT * FROM destinations')) {
        const stored = storedSecrets(row);
        if (!needSealing(this.cipher, stored)) continue;
        const secrets = sealSigningSecrets(this.cipher, openSigningSecrets(this.cipher, stored));
        this.sql.run('UPDATE destinations SET secret = ?, retired_secrets = ? WHERE id = ?', secrets.current, JSON.stringify(secrets.retired), row.id);
        sealed += 1;
      }
      return sealed;
    });
  }

  async ping(): Promise<void> {
    this.sql.get('SELECT 1');
  }

  async close(): Promise<void> {
    await closeSqlite(this.db);
  }

  // Shared steps -----------------------------------------------------------------------

  private dueRankedPerDestination(now: number, perDestination: number, limit: number): Array<{ id: number; org_id: number; destination_id: number }> {
    return this.sql.all(
      `SELECT id, org_id, destination_id FROM (
         SELECT d.id, d.org_id, d.destination_id, d.next_attempt_at,
                ROW_NUMBER() OVER (PARTITION BY d.destination_id ORDER BY d.next_attempt_at, d.id) AS place
         FROM deliveries d JOIN destinations t ON t.id = d.destination_id
         WHERE d.status = 'pending' AND d.next_attempt_at <= ? AND d.claimed_until <= ? AND t.active = 1
       )
       WHERE place <= ?
       ORDER BY next_attempt_at, id
       LIMIT ?`,
      now,
      now,
      perDestination,
      limit,
    );
  }

  private destinationRow(orgId: number, formId: number, destinationId: number): DestinationRow | undefined {
    return this.sql.get<DestinationRow>('SELECT * FROM destinations WHERE org_id = ? AND form_id = ? AND id = ?', orgId, formId, destinationId);
  }

  private requireDestination(orgId: number, formId: number, destinationId: number): Destination {
    const row = this.destinationRow(orgId, formId, destinationId);
    if (!row) throw destinationNotFound(destinationId);
    return toDestination(row, this.cipher);
  }

  private withAttempts(row: DeliveryRow): DeliveryWithAttempts {
    const attempts = this.sql.all<AttemptRow>('SELECT * FROM delivery_attempts WHERE delivery_id = ? ORDER BY id', row.id);
    return { ...toDelivery(row), attempts: attempts.map(toAttempt) };
  }

  /** Inside the caller's transaction. */
  private applyHealth(destinationId: number, health: DestinationHealthChange): void {
    switch (health.kind) {
      case 'healthy':
        this.sql.run('UPDATE destinations SET failing_since = NULL WHERE id = ? AND failing_since IS NOT NULL', destinationId);
        return;
      case 'failing':
        this.markFailing(destinationId, health.at);
        return;
      case 'unchanged':
        return;
      case 'gone':
        if (this.isActive(destinationId)) this.deactivate(destinationId, 'gone', health.at);
        return;
      case 'failing_for_good': {
        this.markFailing(destinationId, health.at);
        const failingLong = this.sql.get(
          'SELECT 1 FROM destinations WHERE id = ? AND active = 1 AND failing_since <= ?',
          destinationId,
          health.cutoff,
        );
        if (failingLong) this.deactivate(destinationId, 'failing', health.at);
        return;
      }
    }
  }

  private markFailing(destinationId: number, at: string): void {
    this.sql.run('UPDATE destinations SET failing_since = ? WHERE id = ? AND failing_since IS NULL', at, destinationId);
  }

  private isActive(destinationId: number): boolean {
    return this.sql.get('SELECT 1 FROM destinations WHERE id = ? AND active = 1', destinationId) !== undefined;
  }

  /** Inactive from `at`; its pending deliveries wait, with no due time, until it is active again. */
  private deactivate(destinationId: number, reason: string | null, at: string): void {
    this.sql.run(
      'UPDATE destinations SET active = 0, deactivated_reason = ?, deactivated_at = ?, updated_at = ? WHERE id = ?',
      reason,
      at,
      at,
      destinationId,
    );
    this.sql.run(`UPDATE deliveries SET next_attempt_at = NULL WHERE destination_id = ? AND status = 'pending'`, destinationId);
  }
}

/** Deliveries removed per transaction when a form's destinations go. */
const deleteBatch = 1000;

/** Lets other work run between two batches of a long removal. */
function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/** The first `perDestination` rows of each destination, in order. */
function firstOfEachDestination<Row extends { destination_id: number }>(rows: Row[], perDestination: number): Row[] {
  const taken = new Map<number, number>();
  return rows.filter((row) => {
    const count = taken.get(row.destination_id) ?? 0;
    taken.set(row.destination_id, count + 1);
    return count < perDestination;
  });
}

/** A performance metric as its row holds it: the flag as 0/1, the latest attempt as JSON. */
type MetricRow = Omit<DeliveryMetric, 'destinationActive' | 'lastAttempt'> & { destinationActive: number; lastAttempt: string | null };
