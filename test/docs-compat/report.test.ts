import { waitFor } from '@formcast/testing';
import { createOrganization, enrollDevice, type TestDevice, type TestOrganization } from '../support/fixtures';
import { createTemplate, type TestTemplate } from '../support/push-fixtures';
import { systemModes } from '../support/start-system';
import { useSystem } from '../support/use-system';
import { answers, WebhookReceiver } from '../support/webhook-receiver';

/**
 * doc/api/report.md (devicemagic/forms_api_docs, every stored version) and the docs'
 * README.md, which indexes the report as `GET /api/performance_metric_report`: the
 * performance metric report as CSV with exactly report.md's fields, in its order, from what
 * the services own (a device's submission in push, its delivery in delivery).
 */
const documentedFields = [
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
];

/** RFC 4180 lines → fields (quoted fields with commas and doubled quotes; no line breaks inside in these tests). */
function csvRows(text: string): string[][] {
  expect(text.endsWith('\r\n')).toBe(true);
  return text
    .slice(0, -2)
    .split('\r\n')
    .map((line) => [...line.matchAll(/("(?:[^"]|"")*"|[^,]*)(,|$)/g)].slice(0, -1).map(([, field]) => (field!.startsWith('"') ? field!.slice(1, -1).replace(/""/g, '"') : field!)));
}

const rooms = (title: string) => ({
  type: 'root',
  title,
  children: [
    { identifier: 'site', title: 'Site', type: 'text' },
    { identifier: 'rooms', title: 'Rooms', type: 'group', children: [{ identifier: 'room', title: 'Room', type: 'text' }] },
  ],
});

jest.setTimeout(60_000);

describe.each(systemModes)('doc/api/report.md: the performance metric report (%s)', (mode) => {
  const sys = useSystem(mode, { organizations: 1, env: { DELIVERY_ALLOW_PRIVATE_NETWORKS: 'true' } });
  let receiver: WebhookReceiver;
  let org: TestOrganization;
  let device: TestDevice;
  let form: TestTemplate;
  let destinationId: number;
  let submissionId: number;
  const now = new Date();
  const month = now.getUTCMonth() + 1;
  const year = now.getUTCFullYear();
  const report = (query: string, token = org.token, path = '/api/v3/reports/performance_metric_report') => sys.api.get(`${path}${query}`, { token });

  beforeAll(async () => {
    receiver = await WebhookReceiver.start();
    // A name a CSV must quote, and one a spreadsheet would take for a formula.
    org = await createOrganization(sys.api, sys.adminToken, `=Acme, "North" ${mode}`);
    device = await enrollDevice(sys.api, org, { owner: 'Ada' });
    form = await createTemplate(sys.api, org, rooms(`Room survey ${mode}`));
    const destination = await sys.api.post(`/api/forms/${form.id}/destinations.json`, {
      token: org.token,
      json: {
        destination: { description: 'CRM hook', format_selection: 'json_format', transport_selection: 'http_transport' },
        json_format: {},
        http_transport: { uri: receiver.script(`/report/${mode}`, answers.ok()), headers: {} },
      },
    });
    expect(destination.status).toBe(201);
    destinationId = destination.json().destination.id;
    const submitted = await sys.api.post(`/device/forms/${form.id}/submissions`, {
      bearer: device.secret,
      json: {
        answers: { site: 'North yard', rooms: [{ room: 'Kitchen' }, { room: 'Hall' }] },
        submission_identifier: `report-${mode}`,
        submitted_at: new Date(now.getTime() - 12_000).toISOString(),
      },
    });
    expect(submitted.status).toBe(201);
    submissionId = submitted.json().submission.id;
    await waitFor(
      async () => {
        const log = await sys.api.get(`/api/forms/${form.id}/destinations/${destinationId}/deliveries.json`, { token: org.token });
        return log.json().deliveries[0]?.status === 'succeeded' ? true : undefined;
      },
      { description: 'the delivery', timeoutMs: 20_000, intervalMs: 100 },
    );
  });
  afterAll(() => receiver?.close());

  it("GET /api/v3/reports/performance_metric_report?month=&year=: 200, text/csv, report.md's fields in its order, a line per delivery from real data", async () => {
    const res = await report(`?month=${month}&year=${year}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="performance_metric_report_${year}_${String(month).padStart(2, '0')}.csv"`);
    const [header, ...lines] = csvRows(res.text);
    expect(header).toEqual(documentedFields);
    expect(lines).toHaveLength(1);
    const row = Object.fromEntries(documentedFields.map((field, i) => [field, lines[0]![i]]));
    expect(row).toEqual({
      'Org Id': String(org.orgId),
      'Org Short Name': `acme_north_${mode}`,
      'Org Name': `'=Acme, "North" ${mode}`,
      'Form Id': String(form.id),
      'Form Name': `Room survey ${mode}`,
      'Pending Submission Id': String(submissionId),
      'Destination Id': String(destinationId),
      'Destination Name': 'CRM hook',
      'Destination Delivery Id': expect.stringMatching(/^[1-9]\d*$/),
      Skipped: 'false',
      'Delivery Created At': expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      'Transport Type': 'http_transport',
      'Format Type': 'json_format',
      'Submission Upload Time Seconds': expect.stringMatching(/^\d+(\.\d+)?$/),
      'Delivery Time Seconds': expect.stringMatching(/^\d+(\.\d+)?$/),
      'File Size': String(receiver.received(`/report/${mode}`)[0]!.rawBody.length),
      'Repeat Group Count': '2',
    });
    // The device said it was submitted 12 s before it was sent.
    expect(Number(row['Submission Upload Time Seconds'])).toBeGreaterThanOrEqual(11);
    expect(Number(row['Delivery Time Seconds'])).toBeLessThan(20);
  });

  it("the older path README.md indexes, GET /api/performance_metric_report, answers the same report", async () => {
    const v3 = await report(`?month=${month}&year=${year}`);
    const older = await report(`?month=${month}&year=${year}`, org.token, '/api/performance_metric_report');
    expect([older.status, older.headers.get('content-type'), older.text]).toEqual([200, 'text/csv; charset=utf-8', v3.text]);
  });

  it("another month, and another organization's report: the header alone", async () => {
    const previous = month === 1 ? `?month=12&year=${year - 1}` : `?month=${month - 1}&year=${year}`;
    expect(csvRows((await report(previous)).text)).toEqual([documentedFields]);
    expect(csvRows((await report(`?month=${month}&year=${year}`, sys.org.token)).text)).toEqual([documentedFields]);
  });

  it('refuses a month or year missing or out of range with 400, and no token with 401', async () => {
    for (const query of ['', `?year=${year}`, `?month=${month}`, `?month=13&year=${year}`, `?month=0&year=${year}`, `?month=${month}&year=abc`, `?month=1.5&year=${year}`, `?month=${month}&month=2&year=${year}`]) {
      const res = await report(query);
      expect([query, res.status]).toEqual([query, 400]);
    }
    expect((await sys.api.get(`/api/v3/reports/performance_metric_report?month=${month}&year=${year}`)).status).toBe(401);
  });
});
