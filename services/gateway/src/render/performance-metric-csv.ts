import {
  performanceMetricColumns,
  type DeliveryMetricView,
  type OrganizationSummaryView,
  type SubmissionMetricView,
} from '@formcast/contracts';

/**
 * One CSV field (RFC 4180): quoted when it holds a comma, a quote or a line break, its quotes
 * doubled. Text a spreadsheet would take for a formula (starting with `=`, `+`, `-`, `@`, a
 * tab or a carriage return: names are the organization's own) is prefixed with `'`.
 */
export function csvField(value: string | number | boolean | null): string {
  if (value === null) return '';
  if (typeof value !== 'string') return String(value);
  const text = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

const csvLine = (fields: Array<string | number | boolean | null>) => `${fields.map(csvField).join(',')}\r\n`;

/** The header line: report.md's fields, in its order. */
export const performanceMetricHeader = csvLine([...performanceMetricColumns]);

/** One delivery's line; its submission's columns are empty when push no longer has it. */
export function performanceMetricLine(org: OrganizationSummaryView, delivery: DeliveryMetricView, submission: SubmissionMetricView | undefined): string {
  return csvLine([
    org.id,
    org.short_name,
    org.name,
    delivery.form_id,
    submission?.form_name ?? null,
    delivery.submission_id,
    delivery.destination_id,
    delivery.destination_name,
    delivery.delivery_id,
    delivery.skipped,
    delivery.created_at,
    delivery.transport_type,
    delivery.format_type,
    submission?.upload_seconds ?? null,
    delivery.delivery_seconds,
    delivery.file_size,
    submission?.repeat_group_count ?? null,
  ]);
}
