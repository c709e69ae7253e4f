import { enrollDevice, type TestDevice } from './support/fixtures';
import { basicAuth } from './support/raw-http';
import { createTemplate, inspectionForm, pushJson } from './support/push-fixtures';
import { systemModes } from './support/start-system';
import { useSystem } from './support/use-system';

/** More than one streamed page of every listing (250 for the client and organization ones, 100 on the device side). */
const outstanding = 260;

describe.each(systemModes)('Outstanding listings: pageable, and streamed whole without paging parameters (%s)', (mode) => {
  const sys = useSystem(mode, { organizations: 2, template: inspectionForm });
  let device: TestDevice;
  let theirsBefore: { client: string; organization: string };
  let ids: number[];

  beforeAll(async () => {
    const [org, other] = sys.orgs;
    device = await enrollDevice(sys.api, org);
    const theirTemplate = await createTemplate(sys.api, other);
    const theirDevice = await enrollDevice(sys.api, other);
    for (let n = 0; n < 3; n += 1) expect((await pushJson(sys.api, other, theirDevice.identifier, { form_namespace: theirTemplate.namespace, payload: {} })).status).toBe(202);
    theirsBefore = {
      client: (await sys.api.get(`/clients/${theirDevice.identifier}/oneshots.json`, { token: other.token })).text,
      organization: (await sys.api.get(`/organizations/${other.orgId}/oneshots`, { token: other.token })).text,
    };
    const dispatches = Array.from({ length: outstanding }, (_, n) => ({ device: device.identifier, form_namespace: sys.template.namespace, payload: { customer_name: `Customer ${n}` } }));
    const bulk = await sys.api.post('/api/v3/dispatches/bulk.json', { token: org.token, json: { dispatches } });
    if (bulk.status !== 200) throw new Error(`bulk: ${bulk.status} ${bulk.text.slice(0, 300)}`);
    const results = bulk.json().results as Array<{ status: number; id: number }>;
    if (results.some((r) => r.status !== 202)) throw new Error(`bulk: ${JSON.stringify(results[0])}`);
    ids = results.map((r) => r.id).sort((a, b) => a - b);
    expect(ids).toHaveLength(outstanding);
    (theirsBefore as Record<string, unknown>).theirDevice = theirDevice;
  });

  const clientPath = (suffix = '') => `/clients/${device.identifier}/oneshots${suffix}`;

  it('answers the whole list in the documented shape without paging parameters, over several streamed pages, in XML and JSON', async () => {
    const org = sys.org;
    const json = await sys.api.get(clientPath('.json'), { token: org.token });
    expect(json.status).toBe(200);
    expect(json.headers.get('content-type')).toMatch(/^application\/json/);
    const list = json.json() as Array<{ id: number; device_id: number; organization_id: number }>;
    expect(list.map((o) => o.id)).toEqual(ids);
    expect(list[0]).toEqual({ description: expect.any(String), device_id: device.id, id: ids[0], name: expect.any(String), namespace: expect.any(String), organization_id: org.orgId });
    const xml = await sys.api.get(clientPath(), { token: org.token });
    expect(xml.headers.get('content-type')).toMatch(/^application\/xml/);
    expect(xml.text.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n<forms type="array">\n  <form>\n')).toBe(true);
    expect(xml.text.match(/<form>/g)).toHaveLength(outstanding);
    expect(xml.text.endsWith('</forms>\n')).toBe(true);

    const deviceSide = await sys.api.get('/device/oneshots', { bearer: device.secret });
    expect(deviceSide.status).toBe(200);
    const mine = deviceSide.json() as { oneshots: Array<{ id: number; payload: { customer_name: string } }> };
    expect(Object.keys(mine)).toEqual(['oneshots']);
    expect(mine.oneshots.map((o) => o.id)).toEqual(ids);
    expect(mine.oneshots.map((o) => Number(o.payload.customer_name.slice('Customer '.length))).sort((a, b) => a - b)).toEqual(Array.from({ length: outstanding }, (_, n) => n));

    const organization = (await sys.api.get(`/organizations/${org.orgId}/oneshots.json`, { token: org.token })).json() as Array<{ id: number }>;
    expect(organization.map((o) => o.id)).toEqual(ids);
  });

  it('answers one page for page and per_page, in the same shape, with a Link to the next while pages are full', async () => {
    const org = sys.org;
    const second = await sys.api.get(clientPath('.json?page=2&per_page=100'), { token: org.token });
    expect(second.status).toBe(200);
    expect((second.json() as Array<{ id: number }>).map((o) => o.id)).toEqual(ids.slice(100, 200));
    expect(second.headers.get('link')).toBe(`</clients/${device.identifier}/oneshots.json?page=3&per_page=100>; rel="next"`);
    const last = await sys.api.get(clientPath('.json?page=3&per_page=100'), { token: org.token });
    expect((last.json() as Array<{ id: number }>).map((o) => o.id)).toEqual(ids.slice(200));
    expect(last.headers.get('link')).toBeNull();
    const xmlPage = await sys.api.get(clientPath('?per_page=2'), { token: org.token });
    expect(xmlPage.text.match(/<id type="integer">(\d+)<\/id>/g)).toEqual(ids.slice(0, 2).map((id) => `<id type="integer">${id}</id>`));
    const beyond = await sys.api.get(clientPath('.json?page=99&per_page=100'), { token: org.token });
    expect(beyond.json()).toEqual([]);

    const devicePage = await sys.api.get('/device/oneshots?page=2&per_page=50', { bearer: device.secret });
    expect((devicePage.json() as { oneshots: Array<{ id: number }> }).oneshots.map((o) => o.id)).toEqual(ids.slice(50, 100));
    const orgPage = await sys.api.get(`/organizations/${org.orgId}/oneshots.json?page=2&per_page=7`, { token: org.token });
    expect((orgPage.json() as Array<{ id: number }>).map((o) => o.id)).toEqual(ids.slice(7, 14));
  });

  it('refuses paging parameters out of range with 400, for every listing, and leaves the other organization unchanged', async () => {
    const org = sys.org;
    const other = sys.orgs[1];
    for (const query of ['?page=0', '?per_page=1001', '?per_page=-1', '?page=abc', '?page=1&page=2']) {
      for (const [path, headers] of [
        [clientPath(`.json${query}`), { authorization: basicAuth(org.token) }],
        [`/organizations/${org.orgId}/oneshots.json${query}`, { authorization: basicAuth(org.token) }],
        [`/device/oneshots${query}`, { authorization: `Bearer ${device.secret}` }],
      ] as const) {
        const res = await sys.api.get(path, { headers });
        expect([path, res.status]).toEqual([path, 400]);
      }
    }
    const theirDevice = (theirsBefore as unknown as { theirDevice: TestDevice }).theirDevice;
    expect((await sys.api.get(`/clients/${theirDevice.identifier}/oneshots.json`, { token: other.token })).text).toBe(theirsBefore.client);
    expect((await sys.api.get(`/organizations/${other.orgId}/oneshots`, { token: other.token })).text).toBe(theirsBefore.organization);
  });
});
