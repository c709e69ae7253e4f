import type { Request, RequestHandler, Response } from 'express';
import {
  deliveryCommands,
  directoryCommands,
  pushCommands,
  type DeliveryMetricsPageView,
  type OrganizationSummaryView,
  type SubmissionMetricView,
} from '@formcast/contracts';
import { AppError } from '@formcast/platform';
import type { SendCommand } from '../http/send-command';
import { performanceMetricHeader, performanceMetricLine } from '../render/performance-metric-csv';
import { cutShort } from '../http/cut-short';

/** A required whole-number query parameter within [min, max]; 400 naming it otherwise. */
function wholeNumber(req: Request, name: string, min: number, max: number): number {
  const value = req.query[name];
  if (value === undefined || value === '') throw new AppError('invalid', `${name}: required (a whole number from ${min} to ${max})`);
  if (typeof value !== 'string' || !/^\d{1,4}$/.test(value) || Number(value) < min || Number(value) > max) {
    throw new AppError('invalid', `${name}: must be a whole number from ${min} to ${max}`);
  }
  return Number(value);
}

/** The month asked for, as [from, to) in UTC. */
function monthOf(req: Request): { from: string; to: string; label: string } {
  const month = wholeNumber(req, 'month', 1, 12);
  const year = wholeNumber(req, 'year', 1970, 9999);
  return {
    from: new Date(Date.UTC(year, month - 1, 1)).toISOString(),
    to: new Date(Date.UTC(year, month, 1)).toISOString(),
    label: `${year}_${String(month).padStart(2, '0')}`,
  };
}

/** A page of the month's deliveries (delivery's) and what push says of their submissions. */
async function pageOf(send: SendCommand, req: Request, month: { from: string; to: string }, after: DeliveryMetricsPageView['rows'][number] | undefined) {
  const page = await send<DeliveryMetricsPageView>(req, deliveryCommands.performanceMetrics, {
    from: month.from,
    to: month.to,
    ...(after ? { after: { created_at: after.created_at, delivery_id: after.delivery_id } } : {}),
  });
  const ids = [...new Set(page.rows.map((row) => row.submission_id))];
  const submissions = ids.length === 0 ? [] : await send<SubmissionMetricView[]>(req, pushCommands.submissionMetrics, { submissionIds: ids });
  return { page, submissions: new Map(submissions.map((submission) => [submission.submission_id, submission])) };
}

/**
 * report.md's performance metric report: a CSV of the organization's deliveries created in the
 * month (UTC), one line per delivery, with report.md's columns in its order. Formcast has no
 * child accounts: the calling organization's own deliveries; every organization has the report.
 * Delivery answers its deliveries and push its submissions, a page at a time; the CSV is
 * written as the pages come. The first page is read before anything is written, so a refusal
 * is a whole answer; a failure after that cuts the response short (never a complete-looking CSV).
 */
async function performanceMetricReport(send: SendCommand, req: Request, res: Response): Promise<void> {
  const month = monthOf(req);
  const org = await send<OrganizationSummaryView>(req, directoryCommands.getOrganization, {});
  let current = await pageOf(send, req, month, undefined);
  res.status(200);
  res.setHeader('Content-Type', 'text/csv; charset=utf-8');
  res.setHeader('Content-Disposition', `attachment; filename="performance_metric_report_${month.label}.csv"`);
  res.write(performanceMetricHeader);
  try {
    for (;;) {
      res.write(current.page.rows.map((row) => performanceMetricLine(org, row, current.submissions.get(row.submission_id))).join(''));
      if (!current.page.more) break;
      current = await pageOf(send, req, month, current.page.rows.at(-1));
    }
  } catch (error) {
    req.context.logger.error({ err: error }, 'the performance metric report stopped part way: the response is cut short');
    cutShort(res);
    return;
  }
  res.end();
}

/** The report's handler (route-table/reports.ts mounts it at its two paths). */
export const performanceMetricReportHandler = (send: SendCommand): RequestHandler => (req, res) => performanceMetricReport(send, req, res);
