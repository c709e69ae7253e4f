import { benchFormDefinition } from './request-shape';

/** A running Formcast API (embedded or distributed) as the bench sets it up. */
export interface BenchOrganization {
  orgId: number;
  token: string;
  /** `Authorization` header value for organization calls (HTTP Basic, token as user name). */
  authorization: string;
  enrollmentCode: string;
  formId: number;
  formNamespace: string;
  deviceIdentifiers: string[];
  /** Each device's secret, by identifier (what it signs in with on the device side). */
  deviceSecrets: Map<string, string>;
}

async function call(origin: string, method: string, path: string, init: { headers?: Record<string, string>; json?: unknown } = {}) {
  const res = await fetch(`${origin}${path}`, {
    method,
    headers: { ...(init.json !== undefined ? { 'content-type': 'application/json' } : {}), ...init.headers },
    ...(init.json !== undefined ? { body: JSON.stringify(init.json) } : {}),
  });
  const text = await res.text();
  return { status: res.status, text, json: () => JSON.parse(text) };
}

function expect(status: number, actual: { status: number; text: string }, what: string): void {
  if (actual.status !== status) throw new Error(`${what} answered ${actual.status}, not ${status}: ${actual.text.slice(0, 300)}`);
}

/** In batches of `width` at a time. */
async function inParallel<T>(count: number, width: number, work: (i: number) => Promise<T>): Promise<T[]> {
  const results: T[] = new Array(count);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(width, count) }, async () => {
      while (next < count) {
        const i = next++;
        results[i] = await work(i);
      }
    }),
  );
  return results;
}

/** An organization with its template and `devices` approved devices (no push token). */
export async function setUpOrganization(origin: string, adminToken: string, name: string, devices: number): Promise<BenchOrganization> {
  const created = await call(origin, 'POST', '/admin/organizations', { headers: { authorization: `Bearer ${adminToken}` }, json: { name } });
  expect(201, created, 'creating an organization');
  const body = created.json();
  const orgId: number = body.organization.id;
  const token: string = body.api_token;
  const authorization = `Basic ${Buffer.from(`${token}:x`).toString('base64')}`;
  const enrollmentCode: string = body.organization.enrollment_code;

  const form = await call(origin, 'POST', `/organizations/${orgId}/forms`, { headers: { authorization }, json: benchFormDefinition });
  expect(201, form, 'creating the template');
  const { id: formId, namespace: formNamespace } = form.json() as { id: number; namespace: string };

  const deviceSecrets = new Map<string, string>();
  const deviceIdentifiers = await inParallel(devices, 8, async (i) => {
    const identifier = `Android_bench_${orgId}_${i}`;
    const enrolled = await call(origin, 'POST', '/devices/enroll', {
      json: { enrollment_code: enrollmentCode, identifier, owner: `Tech ${i}`, description: '', push_token: null },
    });
    expect(201, enrolled, 'enrolling a device');
    deviceSecrets.set(identifier, enrolled.json().device_secret);
    const approved = await call(origin, 'POST', `/organizations/${orgId}/devices/${enrolled.json().device.id}/approve`, { headers: { authorization } });
    expect(200, approved, 'approving a device');
    return identifier;
  });
  return { orgId, token, authorization, enrollmentCode, formId, formNamespace, deviceIdentifiers, deviceSecrets };
}

/** A JSON webhook destination of the organization's template, to `uri` (S6). */
export async function createWebhookDestination(origin: string, org: BenchOrganization, uri: string): Promise<void> {
  const created = await call(origin, 'POST', `/api/forms/${org.formId}/destinations.json`, {
    headers: { authorization: org.authorization },
    json: { destination: { description: 'Bench receiver', format_selection: 'json_format', transport_selection: 'http_transport' }, http_transport: { uri } },
  });
  expect(201, created, 'creating a destination');
}

/** S9: the form's submissions as a PDF, mailed to the local SMTP server; the subject is the tag. */
export async function createPdfEmailDestination(origin: string, org: BenchOrganization, smtpPort: number, tagQuestion: string): Promise<void> {
  const created = await call(origin, 'POST', `/api/forms/${org.formId}/destinations.json`, {
    headers: { authorization: org.authorization },
    json: {
      destination: { description: 'Bench mailbox', format_selection: 'pdf_format', transport_selection: 'email_transport' },
      pdf_format: { file_name_template: 'submission-{{ submission_id }}' },
      email_transport: { to_addresses: 'office@bench.test', subject_template: `{{ ${tagQuestion} }}`, via_custom_smtp: true, smtp_address: '127.0.0.1', smtp_port: smtpPort },
    },
  });
  expect(201, created, 'creating an email destination');
}

/** One call, for the scenarios that are not a load (S4): status, body and wall time. */
export async function timedCall(origin: string, method: string, path: string, init: { headers?: Record<string, string>; body?: string; contentType?: string } = {}) {
  const started = process.hrtime.bigint();
  const res = await fetch(`${origin}${path}`, {
    method,
    headers: { ...(init.contentType ? { 'content-type': init.contentType } : {}), ...init.headers },
    ...(init.body !== undefined ? { body: init.body } : {}),
  });
  const text = await res.text();
  return { status: res.status, text, ms: Number(process.hrtime.bigint() - started) / 1e6 };
}
