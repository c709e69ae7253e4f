import { performanceMetricReportHandler } from '../routes/reports';
import { declareArea, type RouteSpec } from './declare';
import { read } from './route-kinds';

const performanceMetricReport = (path: string, summary: string): RouteSpec =>
  read(path, summary, { description: 'The report', other: { 'text/csv': 'A header line, then one line per delivery (RFC 4180, CRLF)' } }, ({ send }) => performanceMetricReportHandler(send), {
    openapi: {
      description:
        "One line per delivery of a submission to a destination created in the month (UTC), with report.md's columns in its order: Org Id, Org Short Name, Org Name, Form Id, Form Name, Pending Submission Id, Destination Id, Destination Name, Destination Delivery Id, Skipped, Delivery Created At, Transport Type, Format Type, Submission Upload Time Seconds, Delivery Time Seconds, File Size, Repeat Group Count. Formcast has no child accounts: the calling organization's deliveries.",
      query: {
        month: { schema: { type: 'integer', minimum: 1, maximum: 12 }, description: 'The month of the report (required)' },
        year: { schema: { type: 'integer', minimum: 1970, maximum: 9999 }, description: 'The year of the report (required)' },
      },
      errors: [400],
    },
    hostile: [{ query: 'month=5&year=2026' }],
  });

/** Reports (report.md): its path, and the older one the docs' README.md indexes. */
export const reports = declareArea({
  name: 'reports',
  mount: '',
  tag: 'Reports',
  suffixes: 'none',
  routes: [
    performanceMetricReport('/api/v3/reports/performance_metric_report', 'The performance metric report of a month, as CSV'),
    performanceMetricReport('/api/performance_metric_report', "The same report at the older path the docs' README.md indexes"),
  ],
});
