import type { SqliteQueries } from '@formcast/storage';
import type { PerformanceMetricReads } from './delivery-store';
import type { DeliveryMetric, MetricCursor } from '../domain/performance-metrics';

/** The deliveries of a month, as report.md's performance metric report reads them: part of SqliteDeliveryStore. */
export class SqlitePerformanceMetrics implements PerformanceMetricReads {
  constructor(private readonly sql: SqliteQueries) {}

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
}

/** A performance metric as its row holds it: the flag as 0/1, the latest attempt as JSON. */
type MetricRow = Omit<DeliveryMetric, 'destinationActive' | 'lastAttempt'> & { destinationActive: number; lastAttempt: string | null };
