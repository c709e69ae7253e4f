import { z } from 'zod';

/**
 * The performance metric report (report.md): one CSV row per delivery of a submission to a
 * destination made in a month. Each service answers for what it owns, through its command:
 * delivery its deliveries and attempts, push its submissions, directory the organization. The
 * gateway joins them and writes the CSV. Command names are in each service's table
 * (`deliveryCommands.performanceMetrics`, `pushCommands.submissionMetrics`,
 * `directoryCommands.getOrganization`).
 */

/** report.md's columns, in its order: the CSV's header. */
export const performanceMetricColumns = [
  'Org Id',
  'Org Short Name',
  'Org Name',
  'Form Id',
  'Form Name',
  'Pending Submission Id',
  'Destination Id',
  'Destination Name',
  'Destination Delivery Id',
  'Skipped',
  'Delivery Created At',
  'Transport Type',
  'Format Type',
  'Submission Upload Time Seconds',
  'Delivery Time Seconds',
  'File Size',
  'Repeat Group Count',
] as const;

const id = z.number().int().positive();
const isoTime = z.iso.datetime({ offset: true });

/** Rows per page of the delivery command (and submissions per push command). */
export const performanceMetricsMaxPage = 1000;

/** The organization's deliveries created in [from, to), by creation time then id, from after the cursor. */
export const performanceMetricsPayload = z.object({
  from: isoTime,
  to: isoTime,
  /** The last row of the page before (its created_at and delivery_id); absent: from the start. */
  after: z.object({ created_at: isoTime, delivery_id: id }).optional(),
  limit: z.number().int().min(1).max(performanceMetricsMaxPage).default(performanceMetricsMaxPage),
});
export type PerformanceMetricsInput = z.infer<typeof performanceMetricsPayload>;

/** One delivery as the report counts it (delivery's part of a row). */
export interface DeliveryMetricView {
  delivery_id: number;
  destination_id: number;
  /** The destination's description; '' when it has none. */
  destination_name: string;
  form_id: number;
  submission_id: number;
  /** Not delivered, and its destination is inactive: the delivery waits without being attempted. */
  skipped: boolean;
  created_at: string;
  transport_type: string;
  format_type: string;
  /** From the delivery's creation to the end of the attempt that delivered it; null while not delivered. */
  delivery_seconds: number | null;
  /** Bytes sent: the document made for it (PDF, .docx, text), else its body. */
  file_size: number;
}

export interface DeliveryMetricsPageView {
  rows: DeliveryMetricView[];
  /** Whether another page may follow (this one was full). */
  more: boolean;
}

/** The submissions named (of the calling organization; unknown ids are left out). */
export const submissionMetricsPayload = z.object({ submissionIds: z.array(id).min(1).max(performanceMetricsMaxPage) });

/** One submission as the report counts it (push's part of a row). */
export interface SubmissionMetricView {
  submission_id: number;
  form_id: number;
  form_name: string;
  /** From when the device says it was submitted to when it was stored (0 when the device's clock was ahead). */
  upload_seconds: number;
  /** Repetitions of repeating groups in its answers, nested ones included. */
  repeat_group_count: number;
}

/** The calling organization (the envelope's). */
export const getOrganizationPayload = z.object({});

export interface OrganizationSummaryView {
  id: number;
  name: string;
  /** The name in lower case, runs of other characters than letters and digits as `_`: Formcast keeps no short name of its own. */
  short_name: string;
}
