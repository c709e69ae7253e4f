import { get, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { InProcessBus } from '@formcast/bus';
import {
  deliveryCommands,
  directoryCommands,
  performanceMetricColumns,
  performanceMetricsMaxPage as page,
  pushCommands,
  type DeliveryMetricView,
  type PerformanceMetricsInput,
  type SubmissionMetricView,
} from '@formcast/contracts';
import { AppError, createLogger } from '@formcast/platform';
import { createGatewayApp } from '../src/http/create-app';
import { csvField } from '../src/render/performance-metric-csv';

/**
 * The gateway's part of the performance metric report (report.md): the join of the three
 * services' answers, page after page, into one CSV. The services' parts have their own tests
 * (the stores' contract suites, test/docs-compat/report.test.ts end to end); here they are
 * stood in for by handlers answering from lists, so that a report of several pages and a
 * failure between pages can be made.
 */

describe('csvField', () => {
  it.each([
    ['plain', 'plain'],
    ['a, b', '"a, b"'],
    ['say "hi"', '"say ""hi"""'],
    ['two\r\nlines', '"two\r\nlines"'],
    ['=SUM(A1)', "'=SUM(A1)"],
    ['+1', "'+1"],
    ['-1', "'-1"],
    ['@x', "'@x"],
    ['=a,b', `"'=a,b"`],
  ])('%j → %j', (value, expected) => {
    expect(csvField(value)).toBe(expected);
  });

  it('writes numbers and booleans as they are, and null as nothing', () => {
    expect([csvField(-1.5), csvField(0), csvField(true), csvField(false), csvField(null)]).toEqual(['-1.5', '0', 'true', 'false', '']);
  });
});

describe('GET /api/v3/reports/performance_metric_report through the gateway', () => {
  const orgId = 7;
  let bus: InProcessBus;
  let server: Server;
  let origin: string;
  let deliveries: DeliveryMetricView[] = [];
  let asked: Array<PerformanceMetricsInput['after'] | undefined> = [];
  let failOnPage: number | null = null;

  const delivery = (i: number): DeliveryMetricView => ({
    delivery_id: i + 1,
    destination_id: 3,
    destination_name: 'CRM',
    form_id: 9,
    submission_id: 100 + (i % 1500),
    skipped: i % 2 === 0,
    created_at: new Date(Date.UTC(2026, 4, 1) + i * 1000).toISOString(),
    transport_type: 'http_transport',
    format_type: 'json_format',
    delivery_seconds: i % 3 === 0 ? null : 1.25,
    file_size: 300 + i,
  });

  beforeAll(async () => {
    const logger = createLogger({ level: 'silent' });
    bus = new InProcessBus({ logger });
    bus.handleCommand('directory', directoryCommands.authenticateToken, async () => ({ orgId }));
    bus.handleCommand('directory', directoryCommands.getOrganization, async () => ({ id: orgId, name: 'Acme, Ltd', short_name: 'acme_ltd' }));
    bus.handleCommand('delivery', deliveryCommands.performanceMetrics, async (command) => {
      const { after } = command.payload as PerformanceMetricsInput;
      asked.push(after);
      if (failOnPage !== null && asked.length - 1 >= failOnPage) throw new AppError('timeout', 'delivery did not answer');
      const from = after ? deliveries.findIndex((row) => row.delivery_id === after.delivery_id) + 1 : 0;
      const rows = deliveries.slice(from, from + page);
      return { rows, more: rows.length === page };
    });
    bus.handleCommand('push', pushCommands.submissionMetrics, async (command) => {
      const { submissionIds } = command.payload as { submissionIds: number[] };
      // Submission 100 is gone (its columns stay empty).
      return submissionIds.filter((id) => id !== 100).map((id): SubmissionMetricView => ({ submission_id: id, form_id: 9, form_name: 'Survey', upload_seconds: 2.5, repeat_group_count: id % 4 }));
    });
    await bus.start();
    const app = createGatewayApp({ bus, logger, adminToken: 'admin-token-0123456789abcdef', commandTimeoutMs: 2000, bodyLimitBytes: 1 << 20 });
    server = await new Promise((resolve) => {
      const s = app.listen(0, '127.0.0.1', () => resolve(s));
    });
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await bus.close();
  });
  beforeEach(() => {
    asked = [];
    failOnPage = null;
  });

  function fetchReport(): Promise<{ status: number; body: string; complete: boolean }> {
    return new Promise((resolve, reject) => {
      get(`${origin}/api/v3/reports/performance_metric_report?month=5&year=2026`, { headers: { Authorization: `Basic ${Buffer.from('a-token:x').toString('base64')}` } }, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode!, body, complete: res.complete }));
        res.on('error', () => resolve({ status: res.statusCode!, body, complete: false }));
        res.on('aborted', () => resolve({ status: res.statusCode!, body, complete: false }));
      }).on('error', reject);
    });
  }

  it('asks delivery page after page from the last row of each, and writes a line per delivery joined with its submission', async () => {
    deliveries = Array.from({ length: 2 * page + 5 }, (_, i) => delivery(i));
    const res = await fetchReport();
    expect([res.status, res.complete]).toEqual([200, true]);
    const lines = res.body.split('\r\n');
    expect(lines.at(-1)).toBe('');
    expect(lines[0]).toBe(performanceMetricColumns.join(','));
    expect(lines.slice(1, -1)).toHaveLength(deliveries.length);
    expect(asked).toEqual([undefined, { created_at: deliveries[page - 1]!.created_at, delivery_id: page }, { created_at: deliveries[2 * page - 1]!.created_at, delivery_id: 2 * page }]);
    expect(lines[1]).toBe(`7,acme_ltd,"Acme, Ltd",9,,100,3,CRM,1,true,2026-05-01T00:00:00.000Z,http_transport,json_format,,,300,`);
    expect(lines[2]).toBe(`7,acme_ltd,"Acme, Ltd",9,Survey,101,3,CRM,2,false,2026-05-01T00:00:01.000Z,http_transport,json_format,2.5,1.25,301,1`);
    // The second page's first delivery follows the first page's last, joined the same way.
    const next = deliveries[page]!;
    expect(lines[page + 1]).toContain(`,${next.submission_id},3,CRM,${next.delivery_id},`);
  });

  it('a month without deliveries is the header line alone; a full last page is followed by one more question', async () => {
    deliveries = [];
    expect((await fetchReport()).body).toBe(`${performanceMetricColumns.join(',')}\r\n`);
    deliveries = Array.from({ length: page }, (_, i) => delivery(i));
    expect((await fetchReport()).body.split('\r\n')).toHaveLength(page + 2);
    expect(asked).toHaveLength(3);
  });

  it('a failure on the first page is an ordinary error answer; after it, the response is cut short', async () => {
    deliveries = Array.from({ length: page + 5 }, (_, i) => delivery(i));
    failOnPage = 0;
    const first = await fetchReport();
    expect([first.status, first.complete]).toEqual([504, true]);
    asked = [];
    failOnPage = 1;
    const later = await fetchReport();
    expect([later.status, later.complete]).toEqual([200, false]);
  });
});
