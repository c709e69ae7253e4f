import Ajv2020 from 'ajv/dist/2020';
import type { Express } from 'express';
import { InProcessBus } from '@formcast/bus';
import { readFileSync } from 'node:fs';
import { createGatewayApp, openApiDocumentFile, openApiDocumentText } from '@formcast/gateway';
import { createLogger } from '@formcast/platform';
import { waitFor } from '@formcast/testing';
import type { ApiResponse } from './support/api-client';
import { registeredRoutes, type RegisteredRoute } from './support/express-routes';
import { enrollDevice, simpleFormDefinition } from './support/fixtures';
import { mime, xlsxWorkbook } from './fixtures/resource-files';
import { inspectionForm } from './support/push-fixtures';
import { systemModes } from './support/start-system';
import { useSystem } from './support/use-system';

type Document = {
  openapi: string;
  paths: Record<string, Record<string, Operation>>;
  components: { responses: Record<string, ResponseObject> };
};
type ResponseObject = { $ref?: string; description?: string; content?: Record<string, { schema: object }> };
type Operation = { responses: Record<string, ResponseObject>; 'x-formcast-suffixes': string[]; security: object[] };

const methods = ['get', 'post', 'put', 'patch', 'delete'] as const;

/**
 * Routes that are not part of the public API, so not in the document: matched on
 * `METHOD /path`, each with its reason. Another helper's route lands here only by a
 * line saying why.
 */
const notApi: Array<{ route: RegExp; reason: string }> = [
  { route: /^get \/(healthz|readyz)$/, reason: 'liveness and readiness probes' },
  { route: /^get \/metrics$/, reason: 'the Prometheus exposition (behind the admin token)' },
  { route: /^get \/(openapi\.json|docs|docs\/.+)$/, reason: 'the document and its docs page themselves' },
  { route: /^\w+ \/console(\/.*)?$/, reason: 'the console\'s static files' },
  { route: /^all \/api(\/v[34])?\/(resources|async_resource_updates)(\/\{rest\})?$/, reason: 'reads any other body on a resources path up to the resources\' limit, then passes it on' },
];

function gatewayApp(): { app: Express; bus: InProcessBus } {
  const logger = createLogger({ level: 'silent' });
  const bus = new InProcessBus({ logger });
  const app = createGatewayApp({ bus, logger, adminToken: 'admin-token-for-the-route-list', commandTimeoutMs: 1000, bodyLimitBytes: 1_000_000, metrics: { serveWithAdminToken: true } });
  return { app, bus };
}

async function fetchDocument(): Promise<Document> {
  const { app, bus } = gatewayApp();
  const server = app.listen(0);
  try {
    await new Promise((resolve) => server.once('listening', resolve));
    const { port } = server.address() as { port: number };
    const res = await fetch(`http://127.0.0.1:${port}/openapi.json`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    return (await res.json()) as Document;
  } finally {
    server.close();
    await bus.close();
  }
}

/** JSON Schema 2020-12, OpenAPI 3.1's dialect; formats are annotations here (none is asserted by the API's answers). */
function schemaValidator() {
  return new Ajv2020({ strict: true, strictTuples: false, allErrors: true, validateFormats: false });
}

describe('The OpenAPI document', () => {
  let document: Document;
  let registered: RegisteredRoute[];

  beforeAll(async () => {
    document = await fetchDocument();
    const { app, bus } = gatewayApp();
    registered = registeredRoutes(app);
    await bus.close();
  });

  const isApi = (route: RegisteredRoute) => !notApi.some(({ route: pattern }) => pattern.test(`${route.method} ${route.path}`));

  it('is the file the build wrote from the route table (after changing a route, `npm run build` rewrites it)', () => {
    expect(readFileSync(openApiDocumentFile, 'utf8')).toBe(openApiDocumentText());
  });

  it('is served at /openapi.json, without credentials, as OpenAPI 3.1', () => {
    expect(document.openapi).toBe('3.1.0');
    expect(Object.keys(document.paths).length).toBeGreaterThan(50);
  });

  it('describes every route express has registered (method, path template, suffixes)', () => {
    const api = registered.filter(isApi);
    expect(api.length).toBeGreaterThan(80);
    const missing: string[] = [];
    const wrongSuffixes: string[] = [];
    for (const route of api) {
      const verbs = route.method === 'all' ? methods : [route.method];
      for (const verb of verbs) {
        const operation = document.paths[route.path]?.[verb];
        if (!operation) missing.push(`${verb.toUpperCase()} ${route.path}`);
        else if (operation['x-formcast-suffixes'].join('|') !== route.suffixes.join('|')) {
          wrongSuffixes.push(`${verb.toUpperCase()} ${route.path}: takes ${route.suffixes.join('|') || 'none'}, documented ${operation['x-formcast-suffixes'].join('|') || 'none'}`);
        }
      }
    }
    expect(missing).toEqual([]);
    expect(wrongSuffixes).toEqual([]);
  });

  it('describes no route that does not exist', () => {
    const known = new Set(registered.flatMap((route) => (route.method === 'all' ? methods.map((verb) => `${verb} ${route.path}`) : [`${route.method} ${route.path}`])));
    const stale = Object.entries(document.paths).flatMap(([path, item]) =>
      Object.keys(item)
        .filter((verb) => !known.has(`${verb} ${path}`))
        .map((verb) => `${verb.toUpperCase()} ${path}`),
    );
    expect(stale).toEqual([]);
  });

  it('lists every route that is not part of the API for a reason, and each exclusion still matches a route', () => {
    for (const { route, reason } of notApi) {
      expect(reason.length).toBeGreaterThan(10);
      const matching = registered.filter((r) => route.test(`${r.method} ${r.path}`));
      // /console's files come with the console (helper K); the others exist in every gateway.
      if (!route.source.includes('console')) expect(matching.length).toBeGreaterThan(0);
    }
  });

  it('has a JSON Schema that compiles for every body and answer, and names a scheme on every authenticated route', () => {
    const ajv = schemaValidator();
    let compiled = 0;
    for (const [path, item] of Object.entries(document.paths)) {
      for (const [verb, operation] of Object.entries(item)) {
        const bodies = [
          ...Object.values((operation as { requestBody?: { content: Record<string, { schema: object }> } }).requestBody?.content ?? {}),
          ...Object.values(operation.responses).flatMap((answer) => Object.values(answer.content ?? {})),
        ];
        for (const media of bodies) {
          expect(() => ajv.compile(media.schema)).not.toThrow();
          compiled += 1;
        }
        if (!path.startsWith('/devices/enroll')) expect([verb, path, operation.security.length]).toEqual([verb, path, 1]);
      }
    }
    expect(compiled).toBeGreaterThan(150);
  });
});

/**
 * The answers of real requests, checked against the document: the status is one the
 * operation declares, the media type one it declares, and a JSON body matches its schema.
 */
function answerChecker(document: () => Document) {
  const ajv = schemaValidator();
  const validators = new Map<object, ReturnType<typeof ajv.compile>>();
  return function expectDocumented(res: ApiResponse, method: (typeof methods)[number], path: string): void {
    const operation = document().paths[path]?.[method];
    if (!operation) throw new Error(`${method.toUpperCase()} ${path} is not in the document`);
    const answer = operation.responses[String(res.status)];
    expect([method, path, res.status, answer === undefined ? 'undeclared status' : 'declared']).toEqual([method, path, res.status, 'declared']);
    const declared = answer!.$ref ? document().components.responses[answer!.$ref.split('/').pop()!]! : answer!;
    const type = (res.headers.get('content-type') ?? '').split(';')[0]!.trim();
    if (res.text === '') {
      expect([method, path, declared.content === undefined ? 'no content' : 'content declared']).toEqual([method, path, 'no content']);
      return;
    }
    const media = declared.content?.[type] ?? declared.content?.['*/*'];
    expect([method, path, type, media === undefined ? 'undeclared type' : 'declared']).toEqual([method, path, type, 'declared']);
    if (type !== 'application/json') return;
    let validate = validators.get(media!.schema);
    if (!validate) {
      validate = ajv.compile(media!.schema);
      validators.set(media!.schema, validate);
    }
    const valid = validate(res.json());
    expect([method, path, valid ? 'valid' : ajv.errorsText(validate.errors, { separator: '\n' })]).toEqual([method, path, 'valid']);
  };
}

/** The status, with the body in the failure message. */
function expectStatus(res: ApiResponse, status: number): void {
  expect(`${res.status} ${res.text}`).toMatch(new RegExp(`^${status} `));
}

/** The document is the same in every mode; answers cross AMQP (and, distributed, process boundaries), so every mode is checked. */
describe.each(systemModes)('Real answers match the document (%s)', (mode) => {
  // Webhooks to a closed local port: each attempt fails fast, so the delivery log has an attempt to show.
  const sys = useSystem(mode, { organizations: 1, template: inspectionForm, env: { DELIVERY_ALLOW_PRIVATE_NETWORKS: 'true' } });
  let document: Document;
  beforeAll(async () => {
    document = (await sys.api.get('/openapi.json')).json();
  });
  const expectDocumented = answerChecker(() => document);
  const token = () => ({ token: sys.org.token });
  const admin = () => ({ bearer: sys.adminToken });

  it('administration: organizations, tokens, enrollment codes, dead letters', async () => {
    const api = sys.api;
    const created = await api.post('/admin/organizations', { ...admin(), json: { name: 'Documented Co' } });
    expectDocumented(created, 'post', '/admin/organizations');
    const orgId = created.json().organization.id;
    expectDocumented(await api.get('/admin/organizations', admin()), 'get', '/admin/organizations');
    expectDocumented(await api.post(`/admin/organizations/${orgId}/tokens`, { ...admin(), json: { label: 'ci' } }), 'post', '/admin/organizations/{orgId}/tokens');
    expectDocumented(await api.get(`/admin/organizations/${orgId}/tokens`, admin()), 'get', '/admin/organizations/{orgId}/tokens');
    expectDocumented(await api.post(`/admin/organizations/${orgId}/enrollment_code`, admin()), 'post', '/admin/organizations/{orgId}/enrollment_code');
    expectDocumented(await api.get('/admin/dead_letters', admin()), 'get', '/admin/dead_letters');
    expectDocumented(await api.get('/admin/dead_letters/push', admin()), 'get', '/admin/dead_letters/{queue}');
    expectDocumented(await api.get('/admin/dead_letters/push/no-such-letter', admin()), 'get', '/admin/dead_letters/{queue}/{eventId}');
    const issued = await api.post(`/admin/organizations/${orgId}/tokens`, admin());
    expectDocumented(await api.delete(`/admin/organizations/${orgId}/tokens/${issued.json().id}`, admin()), 'delete', '/admin/organizations/{orgId}/tokens/{tokenId}');
    expectDocumented(await api.get('/admin/organizations', { bearer: 'wrong' }), 'get', '/admin/organizations');
  });

  it('devices, groups and forms of both generations', async () => {
    const api = sys.api;
    const org = sys.org.orgId;
    const enrolled = await api.post('/devices/enroll', { json: { enrollment_code: sys.org.enrollmentCode, identifier: `Android_doc-${mode}-1`, owner: 'Ada' } });
    expectDocumented(enrolled, 'post', '/devices/enroll');
    expectStatus(enrolled, 201);
    const deviceId = enrolled.json().device.id;
    expectDocumented(await api.get(`/api/v2/organizations/${org}/devices.json`, token()), 'get', '/api/v2/organizations/{orgId}/devices');
    expectDocumented(await api.post(`/organizations/${org}/devices/${deviceId}/approve`, token()), 'post', '/organizations/{orgId}/devices/{deviceId}/approve');
    expectDocumented(await api.get(`/organizations/${org}/devices.json`, token()), 'get', '/organizations/{orgId}/devices');
    expectDocumented(await api.get(`/organizations/${org}/devices.xml`, token()), 'get', '/organizations/{orgId}/devices');
    expectDocumented(await api.get(`/api/v2/organizations/${org}/devices/${deviceId}.json`, token()), 'get', '/api/v2/organizations/{orgId}/devices/{deviceId}');

    const groups = await api.post(`/organizations/${org}/groups.json`, { ...token(), json: ['Documented field'] });
    expectDocumented(groups, 'post', '/organizations/{orgId}/groups');
    expectDocumented(await api.post(`/organizations/${org}/groups.json`, { ...token(), json: ['Documented field'] }), 'post', '/organizations/{orgId}/groups');
    const groupId = groups.json().groups[0].id;
    expectDocumented(
      await api.put(`/api/organizations/${org}/groups/${groupId}.json`, { ...token(), json: { group: { device_ids: [deviceId] } } }),
      'put',
      '/api/organizations/{orgId}/groups/{groupId}',
    );
    expectDocumented(await api.get(`/api/v2/organizations/${org}/groups.json`, token()), 'get', '/api/v2/organizations/{orgId}/groups');
    const updated = await api.put(`/organizations/${org}/devices/${deviceId}.json`, {
      ...token(),
      json: { device: { description: 'van 4', groups: 'Default,Documented field', custom_attributes: { depot: 'north' } } },
    });
    expectDocumented(updated, 'put', '/organizations/{orgId}/devices/{deviceId}');
    expectDocumented(
      await api.request('PATCH', `/api/organizations/${org}/devices/${deviceId}`, { ...token(), json: { device: { owner: 'Ada L.' } } }),
      'patch',
      '/api/organizations/{orgId}/devices/{deviceId}',
    );

    expectDocumented(await api.get(`/organizations/${org}/forms.json`, token()), 'get', '/organizations/{orgId}/forms');
    expectDocumented(await api.get(`/organizations/${org}/forms/${sys.template.id}.json`, token()), 'get', '/organizations/{orgId}/forms/{formId}');
    const form = await api.post(`/organizations/${org}/forms.json`, { ...token(), json: simpleFormDefinition('Documented form') });
    expectDocumented(form, 'post', '/organizations/{orgId}/forms');
    const formId = form.json().id;
    expectDocumented(
      await api.post(`/organizations/${org}/forms/${formId}/properties`, { ...token(), json: { group: 'Documented field' } }),
      'post',
      '/organizations/{orgId}/forms/{formId}/properties',
    );
    expectDocumented(await api.put(`/organizations/${org}/forms/${formId}.json`, { ...token(), json: simpleFormDefinition('Documented form 2') }), 'put', '/organizations/{orgId}/forms/{formId}');
    expectDocumented(await api.delete(`/organizations/${org}/forms/${formId}.json`, token()), 'delete', '/organizations/{orgId}/forms/{formId}');
    expectDocumented(await api.get(`/organizations/${org}/forms/999999.json`, token()), 'get', '/organizations/{orgId}/forms/{formId}');
    expectDocumented(await api.get(`/organizations/${org}/groups.json`, { token: 'not-a-token' }), 'get', '/organizations/{orgId}/groups');
    expectDocumented(await api.get(`/organizations/${org}/oneshots.xml`, token()), 'get', '/organizations/{orgId}/oneshots');
    expectDocumented(await api.delete(`/api/organizations/${org}/groups/${groupId}.json`, token()), 'delete', '/api/organizations/{orgId}/groups/{groupId}');
    expectDocumented(await api.delete(`/organizations/${org}/devices/${deviceId}.json`, token()), 'delete', '/organizations/{orgId}/devices/{deviceId}');
  });

  it('a push, its dispatch in the v3 lists, bulk, the badge and the device side', async () => {
    const api = sys.api;
    const device = await enrollDevice(api, sys.org);
    const ns = sys.template.namespace;
    const pushed = await api.post(`/clients/${device.identifier}/oneshots.json`, { ...token(), json: { form_namespace: ns, payload: { customer_name: 'Acme' } } });
    expectDocumented(pushed, 'post', '/clients/{deviceRef}/oneshots');
    const oneshotId = pushed.json().oneshot_list[0].id;
    expectDocumented(await api.get(`/clients/${device.identifier}/oneshots.json`, token()), 'get', '/clients/{deviceRef}/oneshots');
    expectDocumented(
      await api.put(`/clients/${device.identifier}/oneshots/${oneshotId}.json`, { ...token(), json: { payload: { customer_name: 'Acme Ltd' } } }),
      'put',
      '/clients/{deviceRef}/oneshots/{oneshotId}',
    );
    expectDocumented(await api.get(`/clients/${device.identifier}/badge.json`, token()), 'get', '/clients/{deviceRef}/badge');
    expectDocumented(await api.get(`/organizations/${sys.org.orgId}/oneshots.json`, token()), 'get', '/organizations/{orgId}/oneshots');

    const created = await api.post(`/api/v3/devices/${device.identifier}/dispatches.json`, {
      ...token(),
      json: { form_namespace: ns, payload: {}, location: 'lat=35.77, long=-78.63', address: 'Raleigh', geofence_radius: 150, scheduled_at: '2099-01-01T08:00:00Z' },
    });
    expectDocumented(created, 'post', '/api/v3/devices/{deviceRef}/dispatches');
    const dispatchId = created.json().dispatch.id;
    expectDocumented(await api.get(`/api/v3/devices/${device.identifier}/dispatches.json?items=10`, token()), 'get', '/api/v3/devices/{deviceRef}/dispatches');
    expectDocumented(await api.get('/api/v3/organization_dispatches.json', token()), 'get', '/api/v3/organization_dispatches');
    expectDocumented(await api.get(`/api/v3/dispatches/${dispatchId}.json?include_inputs=true`, token()), 'get', '/api/v3/dispatches/{dispatchId}');
    expectDocumented(
      await api.request('PATCH', `/api/v3/devices/${device.identifier}/dispatches/${dispatchId}.json`, { ...token(), json: { payload: {}, form_description: 'Gate 4' } }),
      'patch',
      '/api/v3/devices/{deviceRef}/dispatches/{dispatchId}',
    );
    expectDocumented(
      await api.post(`/api/v3/devices/${device.identifier}/dispatches.json`, { ...token(), json: { form_namespace: ns, payload: {}, send_at: 'now' } }),
      'post',
      '/api/v3/devices/{deviceRef}/dispatches',
    );
    expectDocumented(await api.delete(`/api/v3/dispatches/${dispatchId}.json`, token()), 'delete', '/api/v3/dispatches/{dispatchId}');
    expectDocumented(
      await api.post('/api/v3/dispatches/bulk.json', {
        ...token(),
        json: { dispatches: [{ device: device.identifier, form_namespace: ns, payload: {} }, { device: 'nobody', form_namespace: ns, payload: {} }] },
      }),
      'post',
      '/api/v3/dispatches/bulk',
    );
    expectDocumented(await api.get('/api/v3/dispatch_authors.json', token()), 'get', '/api/v3/dispatch_authors');
    expectDocumented(await api.get('/api/v3/users.json', token()), 'get', '/api/v3/users');

    const device_ = { bearer: device.secret };
    expectDocumented(await api.get('/device/oneshots', device_), 'get', '/device/oneshots');
    expectDocumented(await api.get(`/device/oneshots/${oneshotId}`, device_), 'get', '/device/oneshots/{oneshotId}');
    expectDocumented(await api.put('/device', { ...device_, json: { os_version: 'Android 15', app_version: '3.2' } }), 'put', '/device');
    expectDocumented(await api.put('/device/push_token', { ...device_, json: { push_token: 'fcm-token-1' } }), 'put', '/device/push_token');
    const completed = await api.post(`/device/oneshots/${oneshotId}/submission`, { ...device_, json: { answers: { customer_name: 'Done' } } });
    expectStatus(completed, 201);
    expectDocumented(completed, 'post', '/device/oneshots/{oneshotId}/submission');
    const walkIn = await api.post(`/device/forms/${sys.template.id}/submissions`, { ...device_, json: { answers: { customer_name: 'Walk-in' }, submission_identifier: `doc-${mode}` } });
    expectStatus(walkIn, 201);
    expectDocumented(walkIn, 'post', '/device/forms/{formId}/submissions');
    expectDocumented(await api.post(`/clients/${device.identifier}/oneshots/destroy_all`, token()), 'post', '/clients/{deviceRef}/oneshots/destroy_all');
  });

  it('submissions, destinations and resources', async () => {
    const api = sys.api;
    const device = await enrollDevice(api, sys.org);
    const instance = `<?xml version='1.0' encoding='UTF-8'?><instance xmlns='${sys.template.namespace}' submissionIdentifier='doc-v3-${mode}'><customer_name>Acme</customer_name></instance>`;
    expectDocumented(await api.post(`/api/v3/devices/${device.identifier}/submissions.json`, { ...token(), json: { payload: instance } }), 'post', '/api/v3/devices/{deviceRef}/submissions');
    expectDocumented(await api.get(`/api/forms/${sys.template.id}/device_magic_database.json?per_page=5`, token()), 'get', '/api/forms/{formId}/device_magic_database');
    expectDocumented(await api.get(`/api/forms/${sys.template.id}/device_magic_database.json?per_page=0`, token()), 'get', '/api/forms/{formId}/device_magic_database');
    expectDocumented(await api.get('/api/v3/submission_authors.xml', token()), 'get', '/api/v3/submission_authors');

    const base = `/api/forms/${sys.template.id}/destinations`;
    const destination = await api.post(`${base}.json`, {
      ...token(),
      json: {
        destination: { description: 'ERP', format_selection: 'json_format', transport_selection: 'http_transport' },
        http_transport: { uri: 'http://127.0.0.1:9/hooks/formcast', headers: { 'X-Api-Key': 'k' } },
      },
    });
    expectDocumented(destination, 'post', '/api/forms/{formId}/destinations');
    expectStatus(destination, 201);
    const destinationId = destination.json().destination.id;
    expectDocumented(await api.get(`${base}.json`, token()), 'get', '/api/forms/{formId}/destinations');
    expectDocumented(await api.get(`${base}/${destinationId}.json`, token()), 'get', '/api/forms/{formId}/destinations/{destinationId}');
    expectDocumented(
      await api.put(`${base}/${destinationId}.json`, { ...token(), json: { destination: { description: 'ERP (new)', active: true } } }),
      'put',
      '/api/forms/{formId}/destinations/{destinationId}',
    );
    expectDocumented(
      await api.post(`${base}/${destinationId}/rotate_secret.json`, { ...token(), json: { overlap_seconds: 60 } }),
      'post',
      '/api/forms/{formId}/destinations/{destinationId}/rotate_secret',
    );
    const submitted = await api.post(`/device/forms/${sys.template.id}/submissions`, { bearer: device.secret, json: { answers: { customer_name: 'Delivered' } } });
    expectStatus(submitted, 201);
    const deliveries = await waitFor(async () => {
      const res = await api.get(`${base}/${destinationId}/deliveries.json`, token());
      return res.json().deliveries[0]?.attempts.length > 0 ? res : undefined;
    }, { timeoutMs: 20_000, description: 'a delivery with an attempt' });
    expectDocumented(deliveries, 'get', '/api/forms/{formId}/destinations/{destinationId}/deliveries');
    const deliveryId = deliveries.json().deliveries[0].id;
    expectDocumented(
      await api.post(`${base}/${destinationId}/deliveries/${deliveryId}/redeliver.json`, token()),
      'post',
      '/api/forms/{formId}/destinations/{destinationId}/deliveries/{deliveryId}/redeliver',
    );

    const workbook = await xlsxWorkbook([{ name: 'Prices', rows: [['sku', 'price'], ['A-1', 9.5]] }]);
    const uploaded = await api.post('/api/resources.json', {
      ...token(),
      json: { resource: { description: 'prices', file: { file_name: 'prices.xlsx', file_data: workbook.toString('base64'), content_type: mime.xlsx } } },
    });
    expectDocumented(uploaded, 'post', '/api/resources');
    const resourceId = uploaded.json().resource.id;
    expectDocumented(await api.get('/api/resources.json', token()), 'get', '/api/resources');
    expectDocumented(await api.get(`/api/resources/${resourceId}/describe.json`, token()), 'get', '/api/resources/{resourceId}/describe');
    expectDocumented(await api.get(`/api/v3/resources/${resourceId}/describe.json`, token()), 'get', '/api/v3/resources/{resourceId}/describe');
    expectDocumented(await api.get('/api/v3/resources.json', token()), 'get', '/api/v3/resources');
    expectDocumented(await api.get(`/api/resources/${resourceId}`, token()), 'get', '/api/resources/{resourceId}');
    expectDocumented(
      await api.put(`/api/v3/resources/${resourceId}.json`, { ...token(), json: { resource: { description: 'prices 2025' } } }),
      'put',
      '/api/v3/resources/{resourceId}',
    );
    expectDocumented(await api.put(`/api/resources/${resourceId}.json`, { ...token(), json: { resource: { description: 'prices' } } }), 'put', '/api/resources/{resourceId}');
    expectDocumented(await api.get('/api/resources.xml', token()), 'get', '/api/resources');
    const queued = await api.put(`/api/v4/resources/${resourceId}.json`, { ...token(), json: { resource: { description: 'v4' } } });
    expectDocumented(queued, 'put', '/api/v4/resources/{resourceId}');
    expectDocumented(await api.get(`/api/v4/async_resource_updates/${queued.json().async_resource_update_id}`, token()), 'get', '/api/v4/async_resource_updates/{updateId}');
    expectDocumented(await api.get('/api/v4/async_resource_updates/00000000-0000-4000-8000-000000000000', token()), 'get', '/api/v4/async_resource_updates/{updateId}');
    expectDocumented(await api.delete(`/api/v3/resources/${resourceId}.json`, token()), 'delete', '/api/v3/resources/{resourceId}');
    expectDocumented(await api.delete(`${base}/${destinationId}.json`, token()), 'delete', '/api/forms/{formId}/destinations/{destinationId}');

    const connections = `/organizations/${sys.org.orgId}/forms/${sys.template.id}/remote_connections`;
    const connection = await api.post(`${connections}.xml`, {
      ...token(),
      xml: '<remote_connections><http_connection><name>Legacy</name><remote_url>http://127.0.0.1:9/legacy</remote_url><headers><X-Api-Key>k</X-Api-Key></headers></http_connection></remote_connections>',
    });
    expectStatus(connection, 201);
    expectDocumented(connection, 'post', '/organizations/{orgId}/forms/{formId}/remote_connections');
    const connectionId = /<id type="integer">(\d+)<\/id>/.exec(connection.text)![1];
    expectDocumented(await api.get(`${connections}.xml`, token()), 'get', '/organizations/{orgId}/forms/{formId}/remote_connections');
    expectDocumented(await api.get(`${connections}/${connectionId}.xml`, token()), 'get', '/organizations/{orgId}/forms/{formId}/remote_connections/{connectionId}');
    expectDocumented(await api.delete(`${connections}/${connectionId}.xml`, token()), 'delete', '/organizations/{orgId}/forms/{formId}/remote_connections/{connectionId}');
  });
});
