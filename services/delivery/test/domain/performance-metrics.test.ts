import { toDeliveryMetricView, type DeliveryMetric } from '../../src/domain/performance-metrics';

const metric = (extra: Partial<DeliveryMetric> = {}): DeliveryMetric => ({
  deliveryId: 5,
  formId: 9,
  destinationId: 3,
  destinationDescription: 'CRM',
  destinationActive: true,
  format: 'pdf_format',
  transportType: 'email_transport',
  submissionId: 40,
  status: 'succeeded',
  createdAt: '2026-05-04T10:00:00.000Z',
  lastAttempt: { attemptedAt: '2026-05-04T10:00:02.000Z', durationMs: 250 },
  documentBytes: null,
  bodyBytes: 120,
  ...extra,
});

describe("a delivery's part of the performance metric report (report.md)", () => {
  it('counts the delivery time to the end of the attempt that delivered it, and the body as the file when no document was made', () => {
    expect(toDeliveryMetricView(metric())).toEqual({
      delivery_id: 5,
      destination_id: 3,
      destination_name: 'CRM',
      form_id: 9,
      submission_id: 40,
      skipped: false,
      created_at: '2026-05-04T10:00:00.000Z',
      transport_type: 'email_transport',
      format_type: 'pdf_format',
      delivery_seconds: 2.25,
      file_size: 120,
    });
  });

  it('counts the document when one was made, and a destination without a description as an empty name', () => {
    expect(toDeliveryMetricView(metric({ documentBytes: 48_000, destinationDescription: null }))).toMatchObject({ file_size: 48_000, destination_name: '' });
  });

  it('has no delivery time until delivered; skipped only while not delivered and the destination is inactive', () => {
    expect(toDeliveryMetricView(metric({ status: 'pending', lastAttempt: null }))).toMatchObject({ delivery_seconds: null, skipped: false });
    expect(toDeliveryMetricView(metric({ status: 'failed' }))).toMatchObject({ delivery_seconds: null, skipped: false });
    expect(toDeliveryMetricView(metric({ status: 'pending', lastAttempt: null, destinationActive: false }))).toMatchObject({ skipped: true });
    expect(toDeliveryMetricView(metric({ destinationActive: false }))).toMatchObject({ skipped: false, delivery_seconds: 2.25 });
  });
});
