import { randomUUID } from 'node:crypto';
import { nextSqliteId, type SqliteDatabase, type SqliteQueries } from '@formcast/storage';
import type { AttemptOutcome } from '../domain/attempt-outcome';
import type { DueCandidate, InFlight } from '../domain/fair-selection';
import type { Delivery, DeliveryWithAttempts, Destination, NewDelivery } from '../domain/records';
import type { SecretCipher } from '../secrets';
import { attemptsKeptPerDelivery, type ClaimedDelivery, type DeliveryLogPage, type DeliveryQueue, type HandOff, type NewAttempt, type PageRequest } from './delivery-store';
import { toAttempt, toDelivery, toDestination, type AttemptRow, type DeliveryRow, type DestinationRow } from './sqlite-delivery-rows';
import type { SqliteDestinations } from './sqlite-destinations';
import { deliveryNotFound, destinationNotFound } from './store-errors';

/**
 * The delivery queue on SQLite: deliveries, their leases (claims) and attempts, the delivery
 * log. Part of SqliteDeliveryStore, over its database; an attempt's outcome updates its
 * destination's health in the same transaction.
 */
export class SqliteDeliveryQueue implements DeliveryQueue {
  constructor(
    private readonly db: SqliteDatabase,
    private readonly sql: SqliteQueries,
    private readonly cipher: SecretCipher,
    private readonly destinations: SqliteDestinations,
  ) {}


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
          destination = this.destinationOf(row.destination_id);
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

  async recordAttempt(
    claim: { deliveryId: number; claimToken: string },
    attempt: NewAttempt,
    outcome: AttemptOutcome,
    handOff?: HandOff,
  ): Promise<ClaimedDelivery | null> {
    return this.sql.writeGrouped(() => {
      const delivery = this.sql.get<{ destination_id: number }>('SELECT destination_id FROM deliveries WHERE id = ?', claim.deliveryId);
      if (!delivery) return null; // deleted with its destination meanwhile
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
      const stillMine = this.sql.run(
        `UPDATE deliveries SET status = ?, next_attempt_at = ?, schedule_step = schedule_step + ?, claimed_until = 0,
                               claim_token = NULL, updated_at = ?
         WHERE id = ? AND claim_token = ?`,
        outcome.status,
        outcome.nextAttemptAt,
        outcome.deferred ? 0 : 1,
        attempt.attemptedAt,
        claim.deliveryId,
        claim.claimToken,
      ) > 0;
      this.destinations.applyHealth(delivery.destination_id, outcome.health);
      return stillMine && handOff ? this.handOff(delivery.destination_id, handOff) : null;
    });
  }

  /** See HandOff: the oldest due delivery, claimed when it is of `destinationId`. */
  private handOff(destinationId: number, handOff: HandOff): ClaimedDelivery | null {
    const now = handOff.now();
    const oldest = this.sql.get<{ id: number; destination_id: number }>(
      `SELECT d.id, d.destination_id
       FROM deliveries d JOIN destinations t ON t.id = d.destination_id
       WHERE d.status = 'pending' AND d.next_attempt_at <= ? AND d.claimed_until <= ? AND t.active = 1
       ORDER BY d.next_attempt_at, d.id
       LIMIT 1`,
      now,
      now,
    );
    if (oldest?.destination_id !== destinationId) return null;
    const claimToken = randomUUID();
    const row = this.sql.get<DeliveryRow>(
      `UPDATE deliveries SET claimed_until = ?, claim_token = ? WHERE id = ? RETURNING *`,
      now + handOff.leaseMs,
      claimToken,
      oldest.id,
    )!;
    return { delivery: toDelivery(row), destination: this.destinationOf(destinationId), claimToken };
  }

  private destinationOf(destinationId: number): Destination {
    return toDestination(this.sql.get<DestinationRow>('SELECT * FROM destinations WHERE id = ?', destinationId)!, this.cipher);
  }

  async listDeliveries(orgId: number, formId: number, destinationId: number, page: PageRequest): Promise<DeliveryLogPage> {
    return this.sql.read(() => {
      if (!this.destinations.destinationRow(orgId, formId, destinationId)) throw destinationNotFound(destinationId);
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
      const destination = this.destinations.requireDestination(orgId, formId, destinationId);
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

  async getDelivery(orgId: number, formId: number, destinationId: number, deliveryId: number): Promise<Delivery> {
    this.destinations.requireDestination(orgId, formId, destinationId);
    const row = this.sql.get<DeliveryRow>('SELECT * FROM deliveries WHERE id = ? AND destination_id = ?', deliveryId, destinationId);
    if (!row) throw deliveryNotFound(deliveryId);
    return toDelivery(row);
  }


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

  private withAttempts(row: DeliveryRow): DeliveryWithAttempts {
    const attempts = this.sql.all<AttemptRow>('SELECT * FROM delivery_attempts WHERE delivery_id = ? ORDER BY id', row.id);
    return { ...toDelivery(row), attempts: attempts.map(toAttempt) };
  }
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
