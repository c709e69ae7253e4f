import type { PathTable, OperationSpec } from './operation';

/** Reports (report.md). */

const performanceMetricReport = (summary: string): OperationSpec => ({
  summary,
  description:
    "One line per delivery of a submission to a destination created in the month (UTC), with report.md's columns in its order: Org Id, Org Short Name, Org Name, Form Id, Form Name, Pending Submission Id, Destination Id, Destination Name, Destination Delivery Id, Skipped, Delivery Created At, Transport Type, Format Type, Submission Upload Time Seconds, Delivery Time Seconds, File Size, Repeat Group Count. Formcast has no child accounts: the calling organization's deliveries.",
  auth: 'apiToken',
  suffixes: 'none',
  query: {
    month: { schema: { type: 'integer', minimum: 1, maximum: 12 }, description: 'The month of the report (required)' },
    year: { schema: { type: 'integer', minimum: 1970, maximum: 9999 }, description: 'The year of the report (required)' },
  },
  answers: { 200: { description: 'The report', other: { 'text/csv': 'A header line, then one line per delivery (RFC 4180, CRLF)' } } },
  errors: [400],
});

export const reportPaths: PathTable = {
  '/api/v3/reports/performance_metric_report': { get: performanceMetricReport('The performance metric report of a month, as CSV') },
  '/api/performance_metric_report': { get: performanceMetricReport("The same report at the older path the docs' README.md indexes") },
};
