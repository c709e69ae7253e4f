import type { DeliveryMetricView, DeliveryStatus } from '@formcast/contracts';

/** One delivery as the store loads it for the performance metric report (report.md). */
export interface DeliveryMetric {
  deliveryId: number;
  formId: number;
  destinationId: number;
  destinationDescription: string | null;
  destinationActive: boolean;
  format: string;
  transportType: string;
  submissionId: number;
  status: DeliveryStatus;
  createdAt: string;
  /** Its latest attempt (the one that delivered it, when it succeeded); null: none yet. */
  lastAttempt: { attemptedAt: string; durationMs: number } | null;
  /** Its document's bytes, when its format made one; null: none (the body was sent). */
  documentBytes: number | null;
  /** Its body's bytes (UTF-8). */
  bodyBytes: number;
}

/** Where a page of the report starts: after this delivery, in (created at, id) order. */
export interface MetricCursor {
  createdAt: string;
  deliveryId: number;
}

/**
 * The delivery's part of a report row. Skipped: not delivered while its destination is
 * inactive (it waits unattempted). Delivery time: from its creation to the end of the attempt
 * that delivered it, in seconds to the millisecond. File size: the document sent, else the body.
 */
export function toDeliveryMetricView(metric: DeliveryMetric): DeliveryMetricView {
  const delivered = metric.status === 'succeeded' && metric.lastAttempt !== null;
  const deliverySeconds = delivered
    ? Math.max(0, Date.parse(metric.lastAttempt!.attemptedAt) + metric.lastAttempt!.durationMs - Date.parse(metric.createdAt)) / 1000
    : null;
  return {
    delivery_id: metric.deliveryId,
    destination_id: metric.destinationId,
    destination_name: metric.destinationDescription ?? '',
    form_id: metric.formId,
    submission_id: metric.submissionId,
    skipped: metric.status !== 'succeeded' && !metric.destinationActive,
    created_at: metric.createdAt,
    transport_type: metric.transportType,
    format_type: metric.format,
    delivery_seconds: deliverySeconds,
    file_size: metric.documentBytes ?? metric.bodyBytes,
  };
}
