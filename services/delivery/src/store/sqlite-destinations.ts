import { nextSqliteId, type SqliteDatabase, type SqliteQueries } from '@formcast/storage';
import type { DestinationStore, FormRef } from './delivery-store';
import type { DestinationHealthChange } from '../domain/attempt-outcome';
import type { Destination, DestinationChange, NewDestination, SubmissionTarget } from '../domain/records';
import { rotateSecrets } from '../domain/signing-secrets';
import { needSealing, openSigningSecrets, sealSigningSecrets, sealTransport, type SecretCipher } from '../secrets';
import { storedSecrets, toDestination, toSubmissionTarget, type DestinationRow, type SubmissionTargetRow } from './sqlite-delivery-rows';
import { destinationNotFound } from './store-errors';
import { SubmissionTargetCache } from './sqlite-submission-targets';

/**
 * Destinations on SQLite: their records, sealed secrets and health (failing, deactivated).
 * Part of SqliteDeliveryStore, over its database; the delivery queue writes health through
 * `applyHealth` inside its own transactions.
 */
export class SqliteDestinations implements DestinationStore {
  private readonly targets: SubmissionTargetCache;

  constructor(
    private readonly db: SqliteDatabase,
    private readonly sql: SqliteQueries,
    private readonly cipher: SecretCipher,
  ) {
    this.targets = new SubmissionTargetCache(db);
  }


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
      this.changing();
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
      this.changing();
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
      this.changing();
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
      this.changing();
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
    return this.sql.write(() => {
      this.changing();
      return this.sql.run('DELETE FROM destinations WHERE org_id = ? AND form_id = ? AND id IN (SELECT value FROM json_each(?))', orgId, formId, ids);
    });
  }

  async formsWithDestinations(after: FormRef | undefined, limit: number): Promise<FormRef[]> {
    const start = after ?? { orgId: -1, formId: -1 };
    return this.sql.all<FormRef>(
      `SELECT DISTINCT org_id AS orgId, form_id AS formId FROM destinations
       WHERE (org_id, form_id) > (?, ?) ORDER BY org_id, form_id LIMIT ?`,
      start.orgId,
      start.formId,
      limit,
    );
  }

  async activeDestinations(orgId: number, formId: number): Promise<SubmissionTarget[]> {
    return this.targets.targets(orgId, formId, () =>
      this.sql
        .all<SubmissionTargetRow>(
          `SELECT id, org_id, form_id, format, transport_type,
                  CASE WHEN transport_type = 'dispatch_transport' THEN transport_parameters END AS transport_parameters
           FROM destinations WHERE org_id = ? AND form_id = ? AND active = 1 ORDER BY id`,
          orgId,
          formId,
        )
        .map(toSubmissionTarget),
    );
  }

  async sealSecrets(): Promise<number> {
    return this.sql.write(() => {
      this.changing();
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

  /** Inside a write of destinations: the kept active destinations go, now and once it commits. */
  private changing(): void {
    this.targets.forget();
    this.sql.afterCommit(() => this.targets.forget());
  }

  destinationRow(orgId: number, formId: number, destinationId: number): DestinationRow | undefined {
    return this.sql.get<DestinationRow>('SELECT * FROM destinations WHERE org_id = ? AND form_id = ? AND id = ?', orgId, formId, destinationId);
  }

  requireDestination(orgId: number, formId: number, destinationId: number): Destination {
    const row = this.destinationRow(orgId, formId, destinationId);
    if (!row) throw destinationNotFound(destinationId);
    return toDestination(row, this.cipher);
  }

  /** Inside the caller's transaction. */
  applyHealth(destinationId: number, health: DestinationHealthChange): void {
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
    this.changing();
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
