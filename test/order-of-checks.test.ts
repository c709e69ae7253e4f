import type { RequestOptions } from './support/api-client';
import { createForm, enrollDevice, type TestDevice } from './support/fixtures';
import { systemModes } from './support/start-system';
import { useSystem } from './support/use-system';

const bodyLimit = 16 * 1024;
const malformedJson = { body: '{"not": json', contentType: 'application/json' };
const malformedXml = { body: '<device><owner>unclosed</device>', contentType: 'application/xml' };
const oversized = { body: `["${'x'.repeat(bodyLimit)}"]`, contentType: 'application/json' };
const unknownId = 999_999;

/**
 * The documented order of checks (docs/architecture.md, "Order of checks"): authentication
 * (401), then the path, ids only a service can resolve included (404, another
 * organization's as unknown), then the body (413, 415, 400), its meaning (400, 422), and the
 * state (409). Each request combines an unknown path with a bad body, and is sent several
 * times: the answer must not depend on timing or mode.
 */
describe.each(systemModes)('Order of checks (%s)', (mode) => {
  const sys = useSystem(mode, { organizations: 2, env: { BODY_LIMIT_BYTES: String(bodyLimit) }, hookTimeoutMs: 120_000 });
  let own: { device: TestDevice; formId: number; defaultGroupId: number };
  let other: { device: TestDevice; formId: number };

  beforeAll(async () => {
    const [a, b] = sys.orgs;
    const groups = (await sys.api.get(`/organizations/${a!.orgId}/groups.json`, { token: a!.token })).json().groups as Array<{ id: number }>;
    own = { device: await enrollDevice(sys.api, a!), formId: (await createForm(sys.api, a!)).id, defaultGroupId: groups[0]!.id };
    other = { device: await enrollDevice(sys.api, b!), formId: (await createForm(sys.api, b!)).id };
  }, 60_000);

  /** Sends the same request `times` times and answers every status. */
  async function statuses(method: string, path: string, options: RequestOptions, times = 4): Promise<number[]> {
    const answers: number[] = [];
    for (let i = 0; i < times; i++) answers.push((await sys.api.request(method, path, { token: sys.org.token, ...options })).status);
    return answers;
  }
  const always = (status: number, times = 4) => Array<number>(times).fill(status);

  const cases: Array<[string, () => [string, string, RequestOptions]]> = [
    ['groups: an unknown group, malformed JSON', () => ['PUT', `/organizations/${sys.org.orgId}/groups/${unknownId}.json`, malformedJson]],
    ['groups: another organization in the path, malformed JSON', () => ['PUT', `/organizations/${sys.orgs[1]!.orgId}/groups/1.json`, malformedJson]],
    ['groups: an unknown group, a body over the limit', () => ['PUT', `/organizations/${sys.org.orgId}/groups/${unknownId}.json`, oversized]],
    ['devices: another organization\'s device, malformed XML', () => ['PUT', `/organizations/${sys.org.orgId}/devices/${other.device.id}.xml`, malformedXml]],
    ['forms: another organization\'s form, malformed JSON', () => ['PUT', `/organizations/${sys.org.orgId}/forms/${other.formId}.json`, malformedJson]],
    ['forms: another organization\'s form, moved with malformed JSON', () => ['POST', `/organizations/${sys.org.orgId}/forms/${other.formId}/properties.json`, malformedJson]],
    ['oneshots: another organization\'s device, malformed JSON', () => ['POST', `/clients/${other.device.identifier}/oneshots.json`, malformedJson]],
    ['oneshots: another organization\'s device, a body over the limit', () => ['POST', `/clients/${other.device.identifier}/oneshots.json`, oversized]],
    ['oneshots: an unknown oneshot of an own device, malformed JSON', () => ['PUT', `/clients/${own.device.identifier}/oneshots/${unknownId}.json`, malformedJson]],
    ['dispatches v3: another organization\'s device, malformed JSON', () => ['POST', `/api/v3/devices/${other.device.identifier}/dispatches.json`, malformedJson]],
    ['submissions: another organization\'s device, malformed JSON', () => ['POST', `/api/v3/devices/${other.device.identifier}/submissions.json`, malformedJson]],
    ['resources: an unknown resource, malformed JSON', () => ['PUT', `/api/resources/${unknownId}.json`, malformedJson]],
    ['destinations: another organization\'s form, malformed JSON', () => ['POST', `/api/forms/${other.formId}/destinations.json`, malformedJson]],
    ['destinations: an unknown destination of an own form, malformed JSON', () => ['PUT', `/api/forms/${own.formId}/destinations/${unknownId}.json`, malformedJson]],
  ];

  it.each(cases)('%s: 404, every time', async (_name, request) => {
    const [method, path, options] = request();
    expect(await statuses(method, path, options)).toEqual(always(404));
  });

  it('answers 401 before anything else: a wrong token, another organization\'s device, a malformed body', async () => {
    expect(await statuses('POST', `/clients/${other.device.identifier}/oneshots.json`, { ...malformedJson, token: 'not-a-token' })).toEqual(always(401));
  });

  it('answers 401 before a body over the limit', async () => {
    expect(await statuses('PUT', `/organizations/${sys.org.orgId}/groups/${own.defaultGroupId}.json`, { ...oversized, token: 'not-a-token' })).toEqual(always(401));
  });

  it('answers the body\'s refusal once the path exists: 400 malformed, 413 over the limit', async () => {
    const path = `/organizations/${sys.org.orgId}/groups/${own.defaultGroupId}.json`;
    expect(await statuses('PUT', path, malformedJson)).toEqual(always(400));
    expect(await statuses('PUT', path, oversized)).toEqual(always(413));
    expect(await statuses('POST', `/clients/${own.device.identifier}/oneshots.json`, malformedJson)).toEqual(always(400));
    expect(await statuses('POST', `/api/forms/${own.formId}/destinations.json`, malformedJson)).toEqual(always(400));
  });
  it('resolves a oneshot in the path by its own id: outstanding (released or still scheduled) takes the body\'s refusal; ended or another device\'s is 404', async () => {
    const template = await createForm(sys.api, sys.org);
    const push = async (json: object) =>
      (await sys.api.post(`/api/v3/devices/${own.device.identifier}/dispatches.json`, { token: sys.org.token, json: { form_namespace: template.namespace, payload: {}, ...json } })).json()
        .dispatch.id as number;
    const released = await push({});
    const scheduled = await push({ scheduled_at: new Date(Date.now() + 3_600_000).toISOString() });
    const revoked = await push({});
    expect((await sys.api.request('DELETE', `/api/v3/dispatches/${revoked}`, { token: sys.org.token })).status).toBe(200);
    const second = await enrollDevice(sys.api, sys.org);

    for (const oneshot of [released, scheduled]) {
      expect(await statuses('PUT', `/clients/${own.device.identifier}/oneshots/${oneshot}.json`, malformedJson, 2)).toEqual(always(400, 2));
      expect(await statuses('PATCH', `/api/v3/devices/${own.device.identifier}/dispatches/${oneshot}.json`, malformedJson, 2)).toEqual(always(400, 2));
    }
    expect(await statuses('PUT', `/clients/${own.device.identifier}/oneshots/${revoked}.json`, malformedJson, 2)).toEqual(always(404, 2));
    expect(await statuses('PUT', `/clients/${second.identifier}/oneshots/${released}.json`, malformedJson, 2)).toEqual(always(404, 2));
    expect(await statuses('PATCH', `/api/v3/devices/${second.identifier}/dispatches/${scheduled}.json`, malformedJson, 2)).toEqual(always(404, 2));
  });
});
