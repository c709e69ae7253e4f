import { createHash } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { fullPath, routeTable, type HostileCase, type RouteArea, type RouteDeclaration } from '@formcast/gateway';
import type { ApiClient } from './api-client';
import { createForm, enrollDevice, type TestDevice, type TestOrganization } from './fixtures';
import { createTemplate, inspectionForm, pushJson, tinyJpegBase64 } from './push-fixtures';

/**
 * The hostile battery's material (issue 16): every route the gateway serves, as its route
 * table declares it (services/gateway/src/route-table/, each route's `hostile` cases), and
 * the hostile classes, each a generator of a few requests per route. The battery
 * (test/hostile-battery.test.ts) sends them in every mode and asserts no 5xx and that every
 * process is still alive after each class.
 */

// ---------------------------------------------------------------------------------------
// Fixtures: what the paths and bodies name, in the suite's organization and in another one.

export interface BatteryFixtures {
  org: TestOrganization;
  device: TestDevice;
  /** The inspection template: oneshots and submissions name it. */
  template: { id: number; namespace: string };
  /** A plain form: the forms, destinations and connections routes change it. */
  formId: number;
  groupId: number;
  oneshotId: number;
  destinationId: number;
  resourceId: number;
  tokenId: number;
}

const exampleHook = 'https://93.184.215.14/hooks/battery';
const helloBase64 = Buffer.from('hello').toString('base64');

async function created(what: string, answer: Promise<{ status: number; text: string; json(): any }>, status = 201): Promise<any> {
  const res = await answer;
  if (res.status !== status) throw new Error(`creating ${what} for the battery answered ${res.status}: ${res.text}`);
  return res.json();
}

/** One of each record the routes name, in `org`. */
export async function createBatteryFixtures(api: ApiClient, org: TestOrganization, adminToken: string): Promise<BatteryFixtures> {
  const template = await createTemplate(api, org, inspectionForm);
  const form = await createForm(api, org, 'Battery form');
  const device = await enrollDevice(api, org);
  const groups = await created('a group', api.post(`/organizations/${org.orgId}/groups.json`, { token: org.token, json: ['Battery group'] }));
  const oneshots = await created('a oneshot', pushJson(api, org, device.identifier, { form_namespace: template.namespace, payload: {} }), 202);
  const destination = await created(
    'a destination',
    api.post(`/api/forms/${form.id}/destinations.json`, { token: org.token, json: destinationBody('Battery hook') }),
  );
  const resource = await created(
    'a resource',
    api.post('/api/resources.json', { token: org.token, json: resourceBody('Battery file', helloBase64, 'text/plain') }),
  );
  const tokens = await created('(listing) tokens', api.get(`/admin/organizations/${org.orgId}/tokens`, { bearer: adminToken }), 200);
  return {
    org,
    device,
    template: { id: template.id, namespace: template.namespace },
    formId: form.id,
    groupId: groups.groups[0].id,
    oneshotId: oneshots.oneshot_list[0].id,
    destinationId: destination.destination.id,
    resourceId: resource.resource.id,
    tokenId: tokens.tokens[0].id,
  };
}

// ---------------------------------------------------------------------------------------
// Bodies: plausible ones, with the values the classes make hostile.

/** What a class varies in a body: every text field, every Base64 image answer, a resource file's Base64 and MIME type. */
export interface BodyValues {
  text: string;
  base64: string;
  file: string;
  mime: string;
}

export const plainValues: BodyValues = { text: 'plain text', base64: tinyJpegBase64, file: helloBase64, mime: 'text/plain' };

type JsonBody = (f: BatteryFixtures, v: BodyValues) => unknown;
type XmlBody = (f: BatteryFixtures, v: BodyValues) => string;

function destinationBody(text: string) {
  return {
    destination: { description: text, format_selection: 'json_format', transport_selection: 'http_transport' },
    json_format: {},
    http_transport: { uri: exampleHook, headers: { 'X-Battery': text } },
  };
}

/** A document by email (issue 27): a PDF with templates, to a custom SMTP server (a public address: the battery allows no private ones). */
function emailDestinationBody(text: string) {
  return {
    destination: { description: text, format_selection: 'pdf_format', transport_selection: 'email_transport' },
    pdf_format: { file_name_template: `{{ form_name }} ${text}` },
    email_transport: {
      to_addresses: 'office@example.com',
      from_name: text,
      subject_template: `{{ customer_name }} ${text}`,
      body_template: text,
      via_custom_smtp: true,
      smtp_address: '93.184.215.14',
      smtp_port: 2525,
      username: text,
      password: text,
    },
  };
}

function resourceBody(text: string, base64: string, mime: string) {
  return { resource: { description: text, file: { file_name: `${text}.txt`, file_data: base64, content_type: mime } } };
}

const formDefinition = (text: string) => ({
  type: 'root',
  title: text,
  children: [{ identifier: 'customer_name', title: text, type: 'text' }],
});

const oneshotJson: JsonBody = (f, v) => ({
  form_namespace: f.template.namespace,
  form_name: v.text,
  form_description: v.text,
  payload: { customer_name: v.text, photo: v.base64, parts: [{ part_no: v.text }] },
});

const oneshotXml: XmlBody = (f, v) =>
  `<oneshot xmlns:p="http://mobileforms.devicemagic.com/xforms"><p:form_namespace>${f.template.namespace}</p:form_namespace>` +
  `<p:form_name>${v.text}</p:form_name><p:form_description>${v.text}</p:form_description>` +
  `<customer_name>${v.text}</customer_name><photo>${v.base64}</photo></oneshot>`;

const answersJson = (v: BodyValues) => ({ customer_name: v.text, comments: v.text, photo: v.base64, contact: { phone: v.text } });

const submissionInstance = (f: BatteryFixtures, v: BodyValues) =>
  `<?xml version='1.0' encoding='UTF-8'?><instance xmlns='${f.template.namespace}' submissionIdentifier='battery-${v.text}'>` +
  `<customer_name>${v.text}</customer_name><photo>${v.base64}</photo></instance>`;

/** A device identifier's tail from any text (identifiers take letters and digits only): the same text, the same identifier. */
const identifierFor = (text: string) => createHash('sha256').update(text).digest('hex').slice(0, 16);

const bodies = {
  organization: ((_f, v) => ({ name: v.text })) as JsonBody,
  tokenLabel: ((_f, v) => ({ label: v.text })) as JsonBody,
  enroll: ((f, v) => ({ enrollment_code: f.org.enrollmentCode, identifier: `Android_battery_${identifierFor(v.text)}`, owner: v.text, description: v.text, push_token: v.text })) as JsonBody,
  groupNames: ((_f, v) => [v.text, `${v.text} 2`]) as JsonBody,
  groupNamesXml: ((_f, v) => `<groups><group><name>${v.text}</name></group></groups>`) as XmlBody,
  groupUpdate: ((f, v) => ({ group: { name: v.text, form_ids: [f.formId], device_ids: [f.device.id], tags: [v.text] } })) as JsonBody,
  groupUpdateXml: ((f, v) => `<group><name>${v.text}</name><form_ids><form_id>${f.formId}</form_id></form_ids><tags><name>${v.text}</name></tags></group>`) as XmlBody,
  deviceUpdate: ((_f, v) => ({ device: { owner: v.text, description: v.text, groups: `Default,${v.text}` } })) as JsonBody,
  deviceUpdateXml: ((_f, v) => `<device><owner>${v.text}</owner><description>${v.text}</description><groups>Default</groups></device>`) as XmlBody,
  deviceUpdateV2: ((_f, v) => ({ device: { owner: v.text, groups: [{ name: 'Default' }], custom_attributes: { [v.text]: v.text, region: v.text } } })) as JsonBody,
  deviceUpdateV2Xml: ((_f, v) =>
    `<device><owner>${v.text}</owner><groups type="array"><name>Default</name></groups>` +
    `<custom_attributes type="array"><custom_attribute><key>${v.text}</key><value>${v.text}</value></custom_attribute></custom_attributes></device>`) as XmlBody,
  deviceVersions: ((_f, v) => ({ os_version: v.text, app_identifier: v.text, app_version: v.text })) as JsonBody,
  form: ((_f, v) => formDefinition(v.text)) as JsonBody,
  formProperties: ((_f, v) => ({ group: v.text })) as JsonBody,
  formPropertiesXml: ((_f, v) => `<form_properties><group>${v.text}</group></form_properties>`) as XmlBody,
  // form.md's XForms: the form's namespace kept, so that an update is taken.
  formXforms: ((_f, v) =>
    `<h:html xmlns="http://www.w3.org/2002/xforms" xmlns:h="http://www.w3.org/1999/xhtml"><h:head><h:title>${v.text}</h:title>` +
    `<model><instance><data><customer_name/></data></instance></model></h:head>` +
    `<h:body><input ref="customer_name"><label>${v.text}</label></input></h:body></h:html>`) as XmlBody,
  oneshot: oneshotJson,
  oneshotXml,
  dispatch: ((f, v) => ({ ...(oneshotJson(f, v) as object), scheduled_at: '2030-01-01T00:00:00Z', location: 'lat=51.5, long=-0.1', address: v.text, geofence_radius: 100 })) as JsonBody,
  dispatchUpdate: ((_f, v) => ({ form_name: v.text, form_description: v.text, address: v.text, payload: { customer_name: v.text } })) as JsonBody,
  bulk: ((f, v) => ({ dispatches: [{ device: f.device.identifier, ...(oneshotJson(f, v) as object) }, { device: `${v.text}-unknown`, form_namespace: v.text, payload: {} }] })) as JsonBody,
  bulkXml: ((f, v) =>
    `<dispatches type="array"><dispatch><device>${f.device.identifier}</device><form_namespace>${f.template.namespace}</form_namespace>` +
    `<form_name>${v.text}</form_name><payload><customer_name>${v.text}</customer_name><photo>${v.base64}</photo></payload></dispatch></dispatches>`) as XmlBody,
  oneshotUpdate: ((_f, v) => ({ form_name: v.text, form_description: v.text, payload: { customer_name: v.text, photo: v.base64 } })) as JsonBody,
  connectionsXml: ((_f, v) =>
    `<remote_connections><http_connection><name>${v.text}</name><remote_url>${exampleHook}</remote_url>` +
    `<headers><header_1>${v.text}</header_1></headers></http_connection></remote_connections>`) as XmlBody,
  destination: ((_f, v) => destinationBody(v.text)) as JsonBody,
  emailDestination: ((_f, v) => emailDestinationBody(v.text)) as JsonBody,
  destinationUpdate: ((_f, v) => ({ destination: { description: v.text, active: true }, http_transport: { uri: exampleHook } })) as JsonBody,
  rotation: ((_f, _v) => ({ overlap_seconds: 60 })) as JsonBody,
  resource: ((_f, v) => resourceBody(v.text, v.file, v.mime)) as JsonBody,
  resourceUpdate: ((_f, v) => ({ resource: { description: v.text } })) as JsonBody,
  /** v4 (resource_v4.md): `mime_type` in the file object. */
  resourceV4: ((_f, v) => {
    const { resource } = resourceBody(v.text, v.file, v.mime);
    const { content_type, ...file } = resource.file;
    return { resource: { ...resource, file: { ...file, mime_type: content_type } } };
  }) as JsonBody,
  v3Submission: ((f, v) => ({ payload: submissionInstance(f, v) })) as JsonBody,
  /** The answers inside <inputs> (the form's own instance), the namespace and identifier in the body too, as submission-xml.md shows. */
  v3SubmissionInputs: ((f, v) => ({
    form_namespace: f.template.namespace,
    submission_identifier: `battery-${v.text}`,
    payload: submissionInstance(f, v).replace('<customer_name>', '<inputs><customer_name>').replace('</instance>', '</inputs></instance>'),
  })) as JsonBody,
  deviceSubmission: ((_f, v) => ({ answers: answersJson(v) })) as JsonBody,
  formSubmission: ((_f, v) => ({ answers: answersJson(v), submission_identifier: `battery-${v.text}`, submitted_at: '2024-05-01T10:00:00Z' })) as JsonBody,
  /** A submission image's route takes the bytes, whatever the type: each class's body stands for them (and is no image: 415). */
  submissionImage: ((_f, v) => ({ image: v.text })) as JsonBody,
  pushToken: ((_f, v) => ({ push_token: v.text })) as JsonBody,
};

// ---------------------------------------------------------------------------------------
// The routes, from the gateway's route table. Paths name fixtures with placeholders (see `placeholders`).

export type Auth = 'admin' | 'org' | 'device' | 'none';

export interface RouteCase {
  method: string;
  path: string;
  auth: Auth;
  json?: JsonBody;
  xml?: XmlBody;
  /** Reads its body up to the resources' limit, not BODY_LIMIT_BYTES. */
  resourceBody?: boolean;
}

const route = (method: string, path: string, auth: Auth, more: Omit<RouteCase, 'method' | 'path' | 'auth'> = {}): RouteCase => ({ method, path, auth, ...more });

/** The placeholder of each path id the route table names (`:groupId` → `:group`). */
const placeholderOfPathId: Record<string, Placeholder> = {
  orgId: 'org',
  groupId: 'group',
  formId: 'form',
  tokenId: 'token',
  deviceId: 'device',
  deviceRef: 'deviceRef',
  oneshotId: 'oneshot',
  dispatchId: 'oneshot',
  destinationId: 'destination',
  connectionId: 'destination',
  deliveryId: 'delivery',
  resourceId: 'resource',
};

const authOfTable: Record<RouteArea['auth'], Auth> = { apiToken: 'org', deviceSecret: 'device', adminToken: 'admin', none: 'none' };

function bodyNamed(name: string | undefined, where: string): JsonBody | undefined {
  if (name === undefined) return undefined;
  const body = (bodies as Record<string, JsonBody | XmlBody>)[name];
  if (!body) throw new Error(`${where}: the battery has no body ${name}`);
  return body as JsonBody;
}

/** The battery's rows of a table route: one per case it declares. */
function rowsOfDeclaration(area: RouteArea, declaration: RouteDeclaration): RouteCase[] {
  const template = fullPath(area, declaration);
  const where = `${declaration.method.toUpperCase()} ${template}`;
  return declaration.hostile.map((hostile: HostileCase) => {
    const path =
      hostile.path ??
      template.replace(/:(\w+)/g, (_match, name: string) => {
        const placeholder = placeholderOfPathId[name];
        if (!placeholder) throw new Error(`${where}: the battery has no fixture for :${name}; give the case a path`);
        return `:${placeholder}`;
      });
    return route((hostile.method ?? declaration.method).toUpperCase(), `${path}${hostile.suffix ?? ''}${hostile.query ? `?${hostile.query}` : ''}`, authOfTable[area.auth], {
      json: bodyNamed(hostile.json, where),
      xml: bodyNamed(hostile.xml, where) as XmlBody | undefined,
      resourceBody: declaration.body === 'RESOURCE_MAX_BYTES',
    });
  });
}

/** Every route the gateway serves, from its route table (services/gateway/src/route-table/): one row per case a route declares. */
export const routes: RouteCase[] = routeTable.flatMap((area) => area.routes.flatMap((declaration) => rowsOfDeclaration(area, declaration)));

/** The organization's XML listings: each must still parse after the text class. */
export const xmlListings: string[] = [
  '/organizations/:org/groups.xml',
  '/organizations/:org/devices.xml',
  '/api/v2/organizations/:org/devices.xml',
  '/organizations/:org/oneshots.xml',
  '/clients/:deviceRef/oneshots.xml',
  '/organizations/:org/forms/:form/remote_connections.xml',
  '/api/v3/submission_authors.xml',
  '/api/v3/dispatch_authors.xml',
  '/api/v3/devices/:deviceRef/dispatches.xml',
  '/api/v3/organization_dispatches.xml',
  '/api/v3/dispatches/:oneshot.xml?include_inputs=true',
  '/api/v3/devices/:deviceRef/dispatches/:oneshot.xml?include_inputs=true',
  '/api/v2/organizations/:org/dispatches.xml',
  '/api/v2/organizations/:org/groups.xml',
  '/api/v3/resources.xml',
  '/api/v3/resources/:resource/describe.xml',
  '/organizations/:org/forms.xml',
  '/organizations/:org/forms/:form.xml',
];


// ---------------------------------------------------------------------------------------
// Paths

type Placeholder = 'org' | 'device' | 'deviceRef' | 'form' | 'template' | 'group' | 'oneshot' | 'destination' | 'delivery' | 'resource' | 'token';

const placeholderPattern = /:(org|deviceRef|device|form|template|group|oneshot|destination|delivery|resource|token)\b/g;

function idsOf(f: BatteryFixtures): Record<Placeholder, string> {
  return {
    org: String(f.org.orgId),
    device: String(f.device.id),
    deviceRef: f.device.identifier,
    form: String(f.formId),
    template: String(f.template.id),
    group: String(f.groupId),
    oneshot: String(f.oneshotId),
    destination: String(f.destinationId),
    delivery: '1',
    resource: String(f.resourceId),
    token: String(f.tokenId),
  };
}

const unknownIds: Record<Placeholder, string> = {
  org: '987654321',
  device: '987654321',
  deviceRef: 'Android_unknown_987654321',
  form: '987654321',
  template: '987654321',
  group: '987654321',
  oneshot: '987654321',
  destination: '987654321',
  delivery: '987654321',
  resource: '987654321',
  token: '987654321',
};

/** `path` with each placeholder replaced by `ids` (or by what `value` gives for it). */
export function fillPath(path: string, ids: Record<Placeholder, string>, value?: (name: Placeholder) => string | undefined): string {
  return path.replace(placeholderPattern, (_match, name: Placeholder) => value?.(name) ?? ids[name]);
}

/** Routes that end or revoke something: classes that keep the fixtures' own ids send them unknown ids instead. */
const destroys = (r: RouteCase) => r.method === 'DELETE' || /\/(destroy_all|enrollment_code)(\.json)?$/.test(r.path);

/**
 * The route's path with the fixtures' ids; where it would destroy them, unknown ones (but the
 * organization's own under an organization's token, so the request gets past its scope).
 */
function ownPathOf(r: RouteCase, f: BatteryFixtures): string {
  const own = idsOf(f);
  if (!destroys(r)) return fillPath(r.path, own);
  return fillPath(r.path, unknownIds, (name) => (name === 'org' && r.auth !== 'admin' ? own.org : undefined));
}

const placeholdersIn = (path: string): Placeholder[] => [...path.matchAll(placeholderPattern)].map((m) => m[1] as Placeholder);

// ---------------------------------------------------------------------------------------
// Requests

export interface HostileRequest {
  /** Which class and route made it, and how: for failure messages. */
  label: string;
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string | Buffer;
  /** Set where no route could take it (a body of the wrong shape): its class demands a 4xx. */
  mustRefuse?: true;
}

export interface BatteryContext {
  own: BatteryFixtures;
  other: BatteryFixtures;
  adminToken: string;
  bodyLimitBytes: number;
  resourceBodyLimitBytes: number;
}

/** The credentials `r` takes, as `f`'s organization or device (or the admin). */
export function authHeaders(r: RouteCase, f: BatteryFixtures, adminToken: string): Record<string, string> {
  switch (r.auth) {
    case 'admin':
      return { authorization: `Bearer ${adminToken}` };
    case 'org':
      return { authorization: `Basic ${Buffer.from(`${f.org.token}:x`).toString('base64')}` };
    case 'device':
      return { authorization: `Bearer ${f.device.secret}` };
    case 'none':
      return {};
  }
}

interface Shape {
  /** Path placeholders (default: the fixtures' own ids, unknown ones on routes that destroy). */
  path?: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  method?: string;
  /** Whose credentials (default own). */
  as?: BatteryFixtures;
}

/** A request on `r` as the suite's organization, shaped by `shape`. */
function on(c: BatteryContext, r: RouteCase, how: string, shape: Shape = {}): HostileRequest {
  const path = shape.path ?? ownPathOf(r, c.own);
  const method = shape.method ?? r.method;
  return { label: `${method} ${r.path}: ${how}`, method, path, headers: { ...authHeaders(r, shape.as ?? c.own, c.adminToken), ...shape.headers }, body: shape.body };
}

const takesBody = (r: RouteCase) => r.json !== undefined || r.xml !== undefined;
const json = { 'content-type': 'application/json' };
const xml = { 'content-type': 'application/xml' };

/** The route's plausible body, JSON if it takes JSON, else XML, with `values`. */
function plainBody(c: BatteryContext, r: RouteCase, values: BodyValues = plainValues): { body: string; headers: Record<string, string> } {
  if (r.json) return { body: JSON.stringify(r.json(c.own, values)), headers: json };
  return { body: r.xml!(c.own, values), headers: xml };
}

export interface HostileClass {
  name: string;
  requests(r: RouteCase, c: BatteryContext): HostileRequest[];
  /** What is wrong with the class's answers beyond the battery's own checks (none: nothing more). */
  check?(answers: HostileAnswer[]): string[];
}

const bodyRoutesOnly = (make: (r: RouteCase, c: BatteryContext) => HostileRequest[]) => (r: RouteCase, c: BatteryContext) => (takesBody(r) ? make(r, c) : []);

// ---- malformed JSON, malformed XML, DOCTYPE

const malformedJson = ['{"unclosed": ', '{"a": 1}} trailing', "{'single': 'quotes'}", '\u00ef\u00bb\u00bf{"bom": true}'];
const malformedXml = ['<groups><group><name>x</group></groups>', '<a><b></a></b>', '<<not xml>>', '<?xml version="1.0"?>'];

const billionLaughs =
  '<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">' +
  '<!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">]><groups><group><name>&lol3;</name></group></groups>';
const doctypes = [
  billionLaughs,
  '<?xml version="1.0"?><!DOCTYPE x [<!ENTITY xxe SYSTEM "file:///etc/passwd">]><oneshot><name>&xxe;</name></oneshot>',
  '<?xml version="1.0"?><!DOCTYPE x [<!ENTITY % remote SYSTEM "http://127.0.0.1:9/evil.dtd">%remote;]><group><name>x</name></group>',
  '<!DOCTYPE html><html><body>not ours</body></html>',
];

// ---- wrong types

/** Every leaf of `value`, by its path of keys. */
function leafPaths(value: unknown, at: Array<string | number> = []): Array<Array<string | number>> {
  if (Array.isArray(value)) return value.flatMap((item, i) => leafPaths(item, [...at, i]));
  if (typeof value === 'object' && value !== null) return Object.entries(value).flatMap(([key, item]) => leafPaths(item, [...at, key]));
  return [at];
}

function replacedAt(value: unknown, path: Array<string | number>, replacement: unknown): unknown {
  if (path.length === 0) return replacement;
  const [head, ...rest] = path;
  const copy: any = Array.isArray(value) ? [...value] : { ...(value as object) };
  copy[head!] = replacedAt(copy[head!], rest, replacement);
  return copy;
}

/** JSON bodies no route takes: each must be refused (4xx), never acted on. */
const scalarBodies: unknown[] = [null, 42, 'a string'];
/** `request`, which no route takes (a scalar body, or the route's body inside the other container). */
const mustRefuse = (request: HostileRequest): HostileRequest => ({ ...request, mustRefuse: true });

const wrongValues: unknown[] = [12345, ['an', 'array'], null, { an: 'object' }, true, -1.5e308];

function wrongTypes(r: RouteCase, c: BatteryContext): HostileRequest[] {
  if (!r.json) return [];
  const plain = r.json(c.own, plainValues);
  const body = (value: unknown) => on(c, r, `body ${JSON.stringify(value)}`, { body: JSON.stringify(value), headers: json });
  const whole = [...scalarBodies.map((value) => mustRefuse(body(value))), body([]), body({})];
  const leaves = leafPaths(plain).map((path, i) => {
    const wrong = wrongValues[i % wrongValues.length];
    const body = JSON.stringify(replacedAt(plain, path, wrong));
    return on(c, r, `${path.join('.')} = ${JSON.stringify(wrong)}`, { body, headers: json });
  });
  const containers = (Array.isArray(plain) ? [{ not: 'an array' }] : [[plain]]).map((value) =>
    mustRefuse(on(c, r, 'the body wrapped in the other container', { body: JSON.stringify(value), headers: json })),
  );
  return [...whole, ...containers, ...leaves];
}

// ---- ids

function idRoutesOnly(make: (r: RouteCase, c: BatteryContext, names: Placeholder[]) => HostileRequest[]) {
  return (r: RouteCase, c: BatteryContext) => {
    const names = placeholdersIn(r.path);
    return names.length === 0 ? [] : make(r, c, names);
  };
}

/** With a body when the route takes one, so the request reaches the service. */
const withPlainBody = (c: BatteryContext, r: RouteCase, f: BatteryFixtures = c.own): Pick<Shape, 'body' | 'headers'> => {
  if (!takesBody(r)) return {};
  if (r.json) return { body: JSON.stringify(r.json(f, plainValues)), headers: json };
  return { body: r.xml!(f, plainValues), headers: xml };
};

function anotherOrganizationsIds(r: RouteCase, c: BatteryContext, names: Placeholder[]): HostileRequest[] {
  const own = idsOf(c.own);
  const other = idsOf(c.other);
  const variants: HostileRequest[] = [];
  const add = (how: string, path: string, body: Pick<Shape, 'body' | 'headers'>) => {
    if (variants.some((v) => v.path === path && v.body === body.body)) return;
    variants.push(on(c, r, how, { path, ...body }));
  };
  // The admin may act on any organization: only ids of another organization under this one's path.
  if (r.auth !== 'admin') add("every id the other organization's", fillPath(r.path, other), withPlainBody(c, r));
  if (names.some((name) => name !== 'org')) {
    add("the other organization's ids under this organization", fillPath(r.path, own, (name) => (name === 'org' ? undefined : other[name])), withPlainBody(c, r));
  }
  // This organization's path, the other organization's records named in the body.
  if (takesBody(r)) add("the other organization's records in the body", ownPathOf(r, c.own), withPlainBody(c, r, c.other));
  return variants;
}

const numbersInPaths = ['99999999999999999999999999', '9007199254740993', '-1', '1e3', 'abc', ' 1', '%FF'];
const traversals = ['..%2F..%2Fadmin%2Forganizations', '%2e%2e%2f%2e%2e%2f', '..%5C..%5Cwindows', '%252e%252e%252f', '%C0%AE%C0%AE%C0%AF', '..', '%00', '%zz'];

/** Format suffixes the routes do not have: 404, whatever the route. */
const hostileSuffixes = ['.exe', '.JSON', '.json.xml', '..json', '.%00'];

const hostileQueries = ['?page=0&per_page=1001', '?page=99999999999999999999&per_page=-1&items=0', '?page=abc&per_page=1e9&device_id=%00&submitted_after=yesterday&include_inputs=%FF', '?page=1&page=2&per_page[]=3'];

/** Every id of the path given each of `values`; with `withSuffixesAndQueries`, also format suffixes the route lacks and hostile query strings (on every route). */
function pathValues(values: string[], withSuffixesAndQueries: boolean) {
  return (r: RouteCase, c: BatteryContext): HostileRequest[] => {
    const own = idsOf(c.own);
    const asGiven = (value: string) => encodeURI(value).replace(/%25/g, '%');
    const requests =
      placeholdersIn(r.path).length === 0
        ? []
        : values.map((value) => on(c, r, `every id ${value}`, { path: fillPath(r.path, own, () => asGiven(value)), ...withPlainBody(c, r) }));
    if (!withSuffixesAndQueries) return requests;
    const [path, query] = ownPathOf(r, c.own).split('?');
    const bare = path!.replace(/\.(json|xml)$/, '');
    requests.push(...hostileSuffixes.map((suffix) => on(c, r, `suffix ${suffix}`, { path: `${bare}${suffix}${query ? `?${query}` : ''}`, ...withPlainBody(c, r) })));
    if (r.method === 'GET') {
      requests.push(...hostileQueries.map((extra) => on(c, r, `query ${extra}`, { path: `${path}?${query ? `${query}&` : ''}${extra.slice(1)}` })));
    }
    return requests;
  };
}

// ---- sizes, types, encodings

function oversized(r: RouteCase, c: BatteryContext): HostileRequest[] {
  const limit = r.resourceBody ? c.resourceBodyLimitBytes : c.bodyLimitBytes;
  const filler = 'x'.repeat(limit + 4096);
  return [on(c, r, `a body of ${filler.length + 9} bytes`, { body: `{"x":"${filler}"}`, headers: json })];
}

const disallowedTypes = ['text/csv', 'application/octet-stream', 'multipart/form-data; boundary=battery', 'text/html', 'application/json; charset=utf-16', 'image/png'];
const disallowedFileTypes = ['application/x-msdownload', 'text/html', 'application/x-sh', 'image/svg+xml', ''];

function disallowedMimeTypes(r: RouteCase, c: BatteryContext): HostileRequest[] {
  const { body } = plainBody(c, r);
  const requests = disallowedTypes.map((type) => on(c, r, `Content-Type ${type}`, { body, headers: { 'content-type': type } }));
  requests.push(on(c, r, 'no Content-Type', { body }));
  if (!r.xml) requests.push(on(c, r, 'well-formed XML to a JSON-only route', { body: '<root><name>x</name></root>', headers: xml }));
  if (r.json && JSON.stringify(r.json(c.own, { ...plainValues, mime: 'image/jpeg' })) !== JSON.stringify(r.json(c.own, plainValues))) {
    for (const mime of disallowedFileTypes) {
      requests.push(on(c, r, `a file of type "${mime}"`, { body: JSON.stringify(r.json(c.own, { ...plainValues, mime })), headers: json }));
    }
  }
  return requests;
}

const hostileAccepts = ['text/html', 'application/xml;q=x, */*;q=0', 'application/json;q=0, application/xml;q=0', 'image/*'];

function hostileAcceptHeaders(r: RouteCase, c: BatteryContext): HostileRequest[] {
  return hostileAccepts.map((accept) => {
    const plain = withPlainBody(c, r);
    return on(c, r, `Accept ${accept}`, { body: plain.body, headers: { ...plain.headers, accept } });
  });
}

const invalidBase64 = ['!!!not base64!!!', 'QUJD=RA==', '====', 'QUJ\u0000D', 'ÿÿÿÿ', 'A'];

function invalidBase64Bodies(r: RouteCase, c: BatteryContext): HostileRequest[] {
  const sample = (base64: string) => (r.json ? JSON.stringify(r.json(c.own, { ...plainValues, base64, file: base64 })) : r.xml!(c.own, { ...plainValues, base64, file: base64 }));
  if (sample('X') === sample('Y')) return [];
  return invalidBase64.map((base64) => {
    const { headers } = plainBody(c, r);
    return on(c, r, `Base64 ${JSON.stringify(base64)}`, { body: sample(base64), headers });
  });
}

/** Characters XML 1.0 cannot carry, and a lone surrogate. */
export const controlCharacters = ['\u0000', '\u0007', '\u001f', '\ufffe', '\uffff', '\ud800'];
/** The same, and the raw ones XML accepts only as references, as XML character references. */
const characterReferences = ['&#0;', '&#7;', '&#x1F;', '&#xFFFE;', '&#xFFFF;', '&#xD800;'];

function controlCharacterText(r: RouteCase, c: BatteryContext): HostileRequest[] {
  const requests: HostileRequest[] = [];
  for (const char of controlCharacters) {
    const text = `a${char}b`;
    const code = `U+${char.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`;
    if (r.json) requests.push(on(c, r, `JSON text with ${code}`, { body: JSON.stringify(r.json(c.own, { ...plainValues, text })), headers: json }));
    // A lone surrogate cannot be written as UTF-8; only the JSON escape carries it.
    if (r.xml && char !== '\ud800') requests.push(on(c, r, `XML text with ${code}`, { body: r.xml(c.own, { ...plainValues, text }), headers: xml }));
  }
  if (r.xml) {
    for (const ref of characterReferences) requests.push(on(c, r, `XML text with ${ref}`, { body: r.xml(c.own, { ...plainValues, text: `a${ref}b` }), headers: xml }));
  }
  if (r.json) {
    // U+D800 as the bytes UTF-8 forbids (CESU-8), and an overlong NUL.
    const invalid = Buffer.concat([Buffer.from('{"name":"a'), Buffer.from([0xed, 0xa0, 0x80, 0xc0, 0x80]), Buffer.from('b"}')]);
    requests.push(on(c, r, 'JSON with a surrogate and an overlong NUL as bytes', { body: invalid, headers: json }));
  }
  return requests;
}

const depth = 10_000;

function deepNesting(r: RouteCase, c: BatteryContext): HostileRequest[] {
  const requests: HostileRequest[] = [];
  const deepArray = '['.repeat(depth) + ']'.repeat(depth);
  if (r.json) {
    requests.push(on(c, r, `the body ${depth} objects deep`, { body: '{"a":'.repeat(depth) + '1' + '}'.repeat(depth), headers: json }));
    // The first and the last field of the plausible body replaced by the deep value.
    const plain = r.json(c.own, plainValues);
    const leaves = leafPaths(plain);
    for (const leaf of new Set([leaves[0], leaves[leaves.length - 1]])) {
      const body = JSON.stringify(replacedAt(plain, leaf ?? [], '__deep__')).replace('"__deep__"', deepArray);
      requests.push(on(c, r, `${(leaf ?? []).join('.') || 'the body'} ${depth} arrays deep`, { body, headers: json }));
    }
  }
  if (r.xml) {
    requests.push(on(c, r, `XML ${depth} elements deep`, { body: `<a>${'<b>'.repeat(depth)}${'</b>'.repeat(depth)}</a>`, headers: xml }));
  }
  return requests;
}

const garbage = Buffer.from('this is not compressed at all, whatever the header says');

function corruptCompressed(r: RouteCase, c: BatteryContext): HostileRequest[] {
  const { headers } = plainBody(c, r);
  const truncatedGzip = Buffer.from([0x1f, 0x8b, 0x08, 0x00, 0, 0, 0, 0, 0, 0x03, 0xab, 0x56]);
  return [
    on(c, r, 'gzip that is not', { body: garbage, headers: { ...headers, 'content-encoding': 'gzip' } }),
    on(c, r, 'gzip cut short', { body: truncatedGzip, headers: { ...headers, 'content-encoding': 'gzip' } }),
    on(c, r, 'deflate that is not', { body: garbage, headers: { ...headers, 'content-encoding': 'deflate' } }),
    on(c, r, 'br that is not', { body: garbage, headers: { ...headers, 'content-encoding': 'br' } }),
    on(c, r, 'an unknown encoding', { body: garbage, headers: { ...headers, 'content-encoding': 'x-battery' } }),
  ];
}

function longHeaders(r: RouteCase, c: BatteryContext, index: number): HostileRequest[] {
  const plain = withPlainBody(c, r);
  const requests = [
    on(c, r, 'a 10 KB header', { headers: { 'x-battery': 'h'.repeat(10_000) } }),
    on(c, r, 'a 6 KB Idempotency-Key', { body: plain.body, headers: { ...plain.headers, 'idempotency-key': 'k'.repeat(6_000) } }),
    on(c, r, 'a long Accept and Content-Type', { headers: { accept: `application/xml;q=0.9,${'a/b;q=0.1,'.repeat(600)}`, 'content-type': `application/json;${' a=b;'.repeat(600)}` }, body: plain.body }),
    on(c, r, 'a 12 KB credential', { headers: { authorization: `Basic ${Buffer.from(`${'t'.repeat(9_000)}:x`).toString('base64')}` } }),
  ];
  // Over Node's 16 KiB of headers: refused before any route; once in a while is enough.
  if (index % 10 === 0) requests.push(on(c, r, 'a 40 KB header', { headers: { 'x-battery': 'h'.repeat(40_000) } }));
  return requests;
}

const methods = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

function wrongMethods(r: RouteCase, c: BatteryContext): HostileRequest[] {
  // One set per path: the first route of the table with this path makes them.
  const samePath = routes.filter((other) => other.path === r.path);
  if (samePath[0] !== r) return [];
  const registered = new Set(samePath.map((other) => other.method));
  const wrong = methods.filter((method) => !registered.has(method));
  const path = fillPath(r.path, idsOf(c.own));
  const requests = wrong.map((method) => on(c, r, `method ${method}`, { method, path: method === 'DELETE' || destroys(r) ? fillPath(r.path, unknownIds) : path, ...withPlainBody(c, r) }));
  if (routes.indexOf(r) % 4 === 0) {
    for (const method of ['HEAD', 'OPTIONS', 'PROPFIND', 'TRACE', 'BATTERY']) requests.push(on(c, r, `method ${method}`, { method, path: destroys(r) ? fillPath(r.path, unknownIds) : path }));
  }
  return requests;
}

/** The key the prototype-pollution bodies try to set on Object.prototype. */
export const pollutionMark = 'hostileBatteryPolluted';

const formBodies = [
  `__proto__[${pollutionMark}]=1&constructor[prototype][${pollutionMark}]=1`,
  `a${'[b]'.repeat(50)}=1`,
  'a[99999999]=1&a[]=2&a[-1]=3',
  'resource[description]=x&resource[file][file_name]=a.txt&resource[file][content_type]=text/plain&resource[file][file_data]=!!!',
  '%E0%A4%A=1&%=%&&&==&=',
  'name=a%00b&owner=%ED%A0%80',
];

// ---- issue 25: destinations that could never deliver; a flood of wrong enrollment codes

/** HTTP transports a destination may not have: addresses carrying a refused IPv4 one, headers Node cannot send or that are hop-by-hop. */
export const undeliverableTransports: Array<{ uri: string; headers?: Record<string, string> }> = [
  { uri: 'http://[::a9fe:a9fe]/' },
  { uri: 'http://[::169.254.169.254]/latest/meta-data' },
  { uri: 'http://[::127.0.0.1]/' },
  { uri: 'http://[::ffff:0:7f00:1]/' },
  { uri: 'http://[64:ff9b::a9fe:a9fe]/' },
  { uri: 'http://[2002:a9fe:a9fe::1]/' },
  { uri: 'http://[2001:0:4136:e378::80ff:fffe]/' },
  { uri: 'HTTP://127.0.0.1:9/hook' },
  { uri: exampleHook, headers: { 'X-Team': 'snow \u2603' } },
  { uri: exampleHook, headers: { TE: 'trailers' } },
  { uri: exampleHook, headers: { Trailer: 'X-Sum' } },
  { uri: exampleHook, headers: { 'Proxy-Authorization': 'Basic eDp4' } },
  { uri: exampleHook, headers: { Upgrade: 'websocket' } },
];

function undeliverableDestinations(r: RouteCase, c: BatteryContext): HostileRequest[] {
  if (!/\/destinations(\/:destination)?\.json$/.test(r.path) || (r.method !== 'POST' && r.method !== 'PUT')) return [];
  return undeliverableTransports.map((transport) => {
    const body = r.method === 'POST' ? { ...destinationBody('Undeliverable'), http_transport: transport } : { http_transport: transport };
    return on(c, r, `destination ${JSON.stringify(transport)}`, { body: JSON.stringify(body), headers: json });
  });
}

/** Wrong enrollment codes, more than RATE_LIMIT_ENROLLMENT_FAILURES: the rest are 429. Last: enrollment from this address is refused after it. */
function wrongCodeFlood(r: RouteCase, c: BatteryContext): HostileRequest[] {
  if (r.path !== '/devices/enroll') return [];
  return Array.from({ length: 40 }, (_, n) =>
    on(c, r, `wrong code ${n}`, { body: JSON.stringify({ enrollment_code: `wrong-${n}`, identifier: `Android_flood${n}` }), headers: json }),
  );
}

/** The hostile classes of issue 16, in the order the battery sends them. */
export const hostileClasses: HostileClass[] = [
  { name: 'malformed JSON', requests: bodyRoutesOnly((r, c) => malformedJson.map((body) => on(c, r, `JSON ${JSON.stringify(body)}`, { body, headers: json }))) },
  { name: 'malformed XML', requests: bodyRoutesOnly((r, c) => malformedXml.map((body) => on(c, r, `XML ${JSON.stringify(body)}`, { body, headers: xml }))) },
  { name: 'XML with DOCTYPE, entity expansion, external entities', requests: bodyRoutesOnly((r, c) => doctypes.map((body, i) => on(c, r, `DOCTYPE ${i + 1}`, { body, headers: xml }))) },
  {
    name: 'wrong types',
    requests: wrongTypes,
    check: (answers) =>
      answers
        .filter((a) => a.request.mustRefuse && !(typeof a.status === 'number' && a.status >= 400 && a.status < 500))
        .map((a) => `${a.request.label} → ${a.status}: a body of the wrong shape must be refused`),
  },
  { name: 'unknown ids', requests: idRoutesOnly((r, c) => [on(c, r, 'unknown ids', { path: fillPath(r.path, unknownIds), ...withPlainBody(c, r) })]) },
  { name: "another organization's ids", requests: idRoutesOnly(anotherOrganizationsIds) },
  { name: 'oversized bodies', requests: oversized },
  { name: 'disallowed MIME types', requests: bodyRoutesOnly(disallowedMimeTypes) },
  {
    name: 'hostile form-encoded bodies (prototype pollution, deep brackets, bad percent-encoding)',
    requests: bodyRoutesOnly((r, c) => formBodies.map((body) => on(c, r, `form ${body.slice(0, 40)}`, { body, headers: { 'content-type': 'application/x-www-form-urlencoded' } }))),
  },
  { name: 'unsatisfiable and malformed Accept headers', requests: hostileAcceptHeaders },
  { name: 'invalid Base64', requests: bodyRoutesOnly(invalidBase64Bodies) },
  { name: 'control characters in text fields', requests: bodyRoutesOnly(controlCharacterText) },
  { name: `JSON and XML nested ${depth} levels`, requests: bodyRoutesOnly(deepNesting) },
  { name: 'corrupt gzip, deflate and br bodies', requests: bodyRoutesOnly(corruptCompressed) },
  { name: 'huge, negative and non-numeric ids in paths, unknown suffixes, hostile queries', requests: pathValues(numbersInPaths, true) },
  { name: 'path traversal in ids', requests: pathValues(traversals, false) },
  { name: 'very long header values', requests: (r, c) => longHeaders(r, c, routes.indexOf(r)) },
  { name: 'wrong methods', requests: wrongMethods },
  {
    name: 'destinations that could never deliver (embedded-IPv4 addresses, the scheme in capitals, unsendable and hop-by-hop headers)',
    requests: undeliverableDestinations,
    // Refused for what they are (400), or 404 where the route destroys and gets unknown ids: never saved.
    check: (answers) => answers.filter((a) => a.status !== 400 && a.status !== 404).map((a) => `${a.request.label} → ${a.status}`),
  },
  // Last: the address is refused enrollment for RATE_LIMIT_ENROLLMENT_FAILURES_WINDOW_SECONDS after it.
  {
    name: 'a flood of wrong enrollment codes (429 past RATE_LIMIT_ENROLLMENT_FAILURES)',
    requests: wrongCodeFlood,
    check: (answers) => {
      const statuses = answers.map((a) => a.status);
      const problems = statuses.filter((status) => status !== 403 && status !== 429).map((status) => `answered ${status}`);
      if (!statuses.includes(429)) problems.push('no 429 after the wrong codes');
      return problems;
    },
  },
];

// ---------------------------------------------------------------------------------------
// Sending

export interface HostileAnswer {
  request: HostileRequest;
  /** The status, or why there was none. */
  status: number | `no answer: ${string}`;
  /** The start of the answer, for failure messages. */
  excerpt: string;
}

const answerWithinMs = 30_000;

/** Sends one request as it is (no normalisation of the path, any method, any header), on a connection of its own. */
export function sendHostile(baseUrl: string, hostile: HostileRequest): Promise<HostileAnswer> {
  const url = new URL(baseUrl);
  return new Promise((resolve) => {
    let answered: number | undefined;
    const settle = (status: HostileAnswer['status'], excerpt = '') => resolve({ request: hostile, status, excerpt });
    let req;
    try {
      req = httpRequest({ host: url.hostname, port: url.port, method: hostile.method, path: hostile.path, headers: hostile.headers, agent: false, timeout: answerWithinMs });
    } catch (error) {
      settle(`no answer: the client refused to send it (${(error as Error).message})`);
      return;
    }
    req.on('response', (res) => {
      answered = res.statusCode ?? 0;
      const chunks: Buffer[] = [];
      let length = 0;
      res.on('data', (chunk: Buffer) => {
        if (length < 300) chunks.push(chunk);
        length += chunk.length;
      });
      res.on('end', () => settle(res.statusCode ?? 0, Buffer.concat(chunks).toString('utf8').slice(0, 300)));
      res.on('error', () => settle(res.statusCode ?? 0, '(answer cut)'));
    });
    req.on('timeout', () => req.destroy(new Error(`no answer within ${answerWithinMs} ms`)));
    // An answer given before the whole body was sent may be followed by a reset: the answer counts.
    req.on('error', (error) => (answered === undefined ? settle(`no answer: ${error.message}`) : settle(answered, `(then ${error.message})`)));
    req.end(hostile.body);
  });
}

/** Sends every request, `concurrency` at a time. */
export async function sendAllHostile(baseUrl: string, requests: HostileRequest[], concurrency = 6): Promise<HostileAnswer[]> {
  const answers: HostileAnswer[] = new Array(requests.length);
  let next = 0;
  const worker = async () => {
    while (next < requests.length) {
      const index = next;
      next += 1;
      answers[index] = await sendHostile(baseUrl, requests[index]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, requests.length) }, worker));
  return answers;
}

/** `path` with the fixtures' ids in it (for listings). */
export const ownPath = (path: string, f: BatteryFixtures) => fillPath(path, idsOf(f));
