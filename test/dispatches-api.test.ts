import { XMLParser } from 'fast-xml-parser';
import type { DispatchView } from '@formcast/contracts';
import type { ApiResponse } from './support/api-client';
import { createOrganization, enrollDevice, type TestDevice, type TestOrganization } from './support/fixtures';
import { createTemplate, inspectionForm, pushJson, type TestTemplate } from './support/push-fixtures';
import { systemModes } from './support/start-system';
import { useSystem } from './support/use-system';

const pushNamespace = 'http://mobileforms.devicemagic.com/xforms';

/** The keys of a dispatch as observed-behaviour documents them, in its order, plus the three later fields. */
const documentedKeys = [
  'id',
  'name',
  'namespace',
  'version',
  'organization_id',
  'device_id',
  'description',
  'parent_form_id',
  'parent_form_version',
  'created_at',
  'updated_at',
  'scheduled_at',
  'location',
  'address',
  'geofence_radius',
  'author_identifier',
  'author_type',
] as const;
const integerKeys = new Set(['id', 'organization_id', 'device_id', 'parent_form_id']);
const timeKeys = new Set(['created_at', 'updated_at', 'scheduled_at']);

/** The contract's view; the documented keys are checked at run time against `documentedKeys`. */
type Dispatch = DispatchView;

const xmlParser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@_',
  parseTagValue: false,
  ignoreDeclaration: true,
  isArray: (name, path) => path === 'dispatches.dispatch' || path === 'authors.author',
});
const parseXmlBody = (res: ApiResponse) => {
  expect(res.headers.get('content-type')).toMatch(/^application\/xml/);
  expect(res.text.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n')).toBe(true);
  return xmlParser.parse(res.text);
};

/** A `<dispatch>` element checked element by element against the same dispatch's JSON. */
function expectXmlDispatch(element: Record<string, unknown>, json: Dispatch): void {
  const dashed = (key: string) => key.replace(/_/g, '-');
  expect(Object.keys(element)).toEqual([...documentedKeys.map(dashed), ...(json.inputs === undefined ? [] : ['inputs'])]);
  for (const key of documentedKeys) {
    const value = json[key];
    const type = integerKeys.has(key) ? 'integer' : timeKeys.has(key) ? 'dateTime' : key === 'geofence_radius' ? 'float' : undefined;
    const expected =
      value === null ? { ...(type ? { '@_type': type } : {}), '@_nil': 'true' } : type ? { '#text': String(value), '@_type': type } : String(value);
    expect([key, element[dashed(key)]]).toEqual([key, expected]);
  }
}

/** A dispatch in JSON: exactly the documented keys, with the values a dispatch of `template` on `device` has. */
function expectJsonDispatch(dispatch: Dispatch, expected: { org: TestOrganization; device: TestDevice; template: TestTemplate }): void {
  expect(Object.keys(dispatch).filter((k) => k !== 'inputs').sort()).toEqual([...documentedKeys].sort());
  expect(dispatch).toMatchObject({
    id: expect.any(Number),
    organization_id: expected.org.orgId,
    device_id: expected.device.id,
    parent_form_id: expected.template.id,
    version: '1.00',
    parent_form_version: '1.00',
  });
  expect(dispatch.namespace).toMatch(new RegExp(`^${expected.template.namespace.replace(/[.?/]/g, '\\$&')}\\?[0-9a-f-]{36}$`));
  for (const key of ['created_at', 'updated_at'] as const) expect(Number.isNaN(Date.parse(dispatch[key]))).toBe(false);
}

describe.each(systemModes)('Push API, v3 dispatches and the v2 create (%s)', (mode) => {
  const sys = useSystem(mode, { organizations: 2, template: inspectionForm });
  let otherTemplate: TestTemplate;
  beforeAll(async () => {
    otherTemplate = await createTemplate(sys.api, sys.orgs[1], inspectionForm);
  });

  const token = () => sys.org.token;
  const get = (path: string, org = sys.org) => sys.api.get(path, { token: org.token });
  const createV3 = (device: string | number, body: object, suffix = '.json') =>
    sys.api.post(`/api/v3/devices/${device}/dispatches${suffix}`, { token: token(), json: body });
  const created = async (res: Promise<ApiResponse>): Promise<Dispatch> => {
    const answer = await res;
    expect([answer.status, answer.text]).toEqual([202, expect.any(String)]);
    return answer.json().dispatch;
  };
  const legacyIds = async (device: TestDevice) =>
    ((await get(`/clients/${device.identifier}/oneshots.json`)).json() as Array<{ id: number }>).map((o) => o.id);
  const v3DeviceIds = async (device: TestDevice) =>
    ((await get(`/api/v3/devices/${device.identifier}/dispatches.json`)).json().dispatches as Dispatch[]).map((d) => d.id);

  describe('GET /api/v3/dispatch_authors', () => {
    it("lists the organization's approved devices as Device authors, as submission_authors does, in JSON and XML", async () => {
      const org = await createOrganization(sys.api, sys.adminToken);
      const named = await enrollDevice(sys.api, org, { owner: 'Ada' });
      const unnamed = await enrollDevice(sys.api, org, { owner: '' });
      await enrollDevice(sys.api, org, { approve: false });

      const json = await get('/api/v3/dispatch_authors.json', org);
      expect(json.status).toBe(200);
      expect(json.json()).toEqual({
        authors: [
          { identifier: named.identifier, type: 'Device', name: 'Ada', email: null },
          { identifier: unnamed.identifier, type: 'Device', name: unnamed.identifier, email: null },
        ],
      });
      expect((await get('/api/v3/submission_authors.json', org)).json()).toEqual(json.json());

      const xml = parseXmlBody(await get('/api/v3/dispatch_authors.xml', org));
      expect(xml.authors['@_type']).toBe('array');
      expect(xml.authors.author).toEqual([
        { identifier: named.identifier, type: 'Device', name: 'Ada', email: { '@_nil': 'true' } },
        { identifier: unnamed.identifier, type: 'Device', name: unnamed.identifier, email: { '@_nil': 'true' } },
      ]);
    });
  });

  describe('create', () => {
    it('POST /api/v3/devices/<identifier>/dispatches.json: 202 with the new dispatch, the same record on the oneshot paths', async () => {
      const device = await enrollDevice(sys.api, sys.org);
      const res = await createV3(device.identifier, {
        form_namespace: sys.template.namespace,
        form_name: 'Inspection for Acme',
        form_description: 'Call ahead',
        payload: { customer_name: 'Acme' },
      });
      expect(res.status).toBe(202);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      expect(Object.keys(res.json())).toEqual(['dispatch']);
      const dispatch: Dispatch = res.json().dispatch;
      expectJsonDispatch(dispatch, { org: sys.org, device, template: sys.template });
      expect(dispatch).toMatchObject({ name: 'Inspection for Acme', description: 'Call ahead', scheduled_at: null, location: null, address: null, geofence_radius: null });
      expect(dispatch.inputs).toBeUndefined();

      // The same record on the oneshot paths: the organization listing and the device's own read.
      expect(await legacyIds(device)).toEqual([dispatch.id]);
      const all = (await get(`/organizations/${sys.org.orgId}/oneshots.json`)).json() as Array<{ id: number; namespace: string }>;
      expect(all.find((o) => o.id === dispatch.id)?.namespace).toBe(dispatch.namespace);
      const seen = (await sys.api.get(`/device/oneshots/${dispatch.id}`, { bearer: device.secret })).json().oneshot;
      expect(seen).toMatchObject({ name: 'Inspection for Acme', description: 'Call ahead', payload: { customer_name: 'Acme' } });
    });

    it('takes the documented XML <oneshot> with dm:location, dm:address, dm:geofence_radius (any prefix) and answers <dispatch> on .xml', async () => {
      const device = await enrollDevice(sys.api, sys.org);
      const xml = `<oneshot xmlns="http://www.w3.org/2002/xforms" xmlns:p="${pushNamespace}">
  <p:form_name>Inspection for Acme</p:form_name>
  <p:form_namespace>${sys.template.namespace}</p:form_namespace>
  <p:form_description>Call ahead</p:form_description>
  <p:location>lat=35.77, long=-78.63</p:location>
  <p:address>1 Main St, Raleigh</p:address>
  <p:geofence_radius>150</p:geofence_radius>
  <customer_name>Acme &amp; Sons</customer_name>
</oneshot>`;
      const res = await sys.api.post(`/api/v3/devices/${device.identifier}/dispatches.xml`, { token: token(), xml });
      expect(res.status).toBe(202);
      const element = parseXmlBody(res).dispatch;
      const json: Dispatch = (await get(`/api/v3/dispatches/${element.id['#text']}.json`)).json();
      expectXmlDispatch(element, json);
      expectJsonDispatch(json, { org: sys.org, device, template: sys.template });
      expect(json).toMatchObject({ location: 'lat=35.77, long=-78.63', address: '1 Main St, Raleigh', geofence_radius: 150, description: 'Call ahead' });
      const seen = (await sys.api.get(`/device/oneshots/${json.id}`, { bearer: device.secret })).json().oneshot;
      expect(seen.payload).toEqual({ customer_name: 'Acme & Sons' });
    });

    it('answers JSON without a suffix whatever the body, <dispatch> when Accept asks for XML', async () => {
      const device = await enrollDevice(sys.api, sys.org);
      const xmlBody = `<oneshot xmlns:dm="${pushNamespace}"><dm:form_namespace>${sys.template.namespace}</dm:form_namespace></oneshot>`;
      const plain = await sys.api.post(`/api/v3/devices/${device.identifier}/dispatches`, { token: token(), xml: xmlBody });
      expect(plain.status).toBe(202);
      expect(plain.json().dispatch.device_id).toBe(device.id);
      const asked = await sys.api.post(`/api/v3/devices/${device.identifier}/dispatches`, {
        token: token(),
        json: { form_namespace: sys.template.namespace, payload: {} },
        headers: { accept: 'application/xml' },
      });
      expect(asked.status).toBe(202);
      expect(parseXmlBody(asked).dispatch['device-id']).toEqual({ '#text': String(device.id), '@_type': 'integer' });
    });

    it('keeps a future scheduled_at and shows it in the listings', async () => {
      const device = await enrollDevice(sys.api, sys.org);
      const when = new Date(Date.now() + 24 * 3600_000).toISOString();
      const dispatch = await created(createV3(device.identifier, { form_namespace: sys.template.namespace, payload: {}, scheduled_at: when }));
      expect(Date.parse(dispatch.scheduled_at!)).toBe(Date.parse(when));
      const listed = (await get(`/api/v3/devices/${device.identifier}/dispatches.json`)).json().dispatches as Dispatch[];
      expect(listed.map((d) => [d.id, Date.parse(d.scheduled_at!)])).toEqual([[dispatch.id, Date.parse(when)]]);
      const xml = parseXmlBody(await get(`/api/v3/devices/${device.identifier}/dispatches.xml`));
      expect(xml.dispatches.dispatch[0]['scheduled-at']['@_type']).toBe('dateTime');
      expect(Date.parse(xml.dispatches.dispatch[0]['scheduled-at']['#text'])).toBe(Date.parse(when));
    });

    it('POST /api/v2/devices/<identifier>/dispatches.(xml|json) is the same create', async () => {
      const device = await enrollDevice(sys.api, sys.org);
      const xml = await sys.api.post(`/api/v2/devices/${device.identifier}/dispatches.xml`, {
        token: token(),
        xml: `<oneshot xmlns:dm="${pushNamespace}"><dm:form_namespace>${sys.template.namespace}</dm:form_namespace><dm:address>Depot</dm:address><comments>v2</comments></oneshot>`,
      });
      expect(xml.status).toBe(202);
      const fromXml = parseXmlBody(xml).dispatch;
      expect(fromXml.address).toBe('Depot');
      const byId = await sys.api.post(`/api/v2/devices/${device.id}/dispatches.json`, { token: token(), json: { form_namespace: sys.template.namespace, payload: {} } });
      expect(byId.status).toBe(202);
      expect(await v3DeviceIds(device)).toEqual([Number(fromXml.id['#text']), byId.json().dispatch.id]);
      expect(await legacyIds(device)).toEqual(await v3DeviceIds(device));
    });

    it('a oneshot created on the legacy path with the new fields (JSON keys and dm: elements) reads the same on v3', async () => {
      const device = await enrollDevice(sys.api, sys.org);
      const json = await pushJson(sys.api, sys.org, device.identifier, {
        form_namespace: sys.template.namespace,
        payload: { customer_name: 'Legacy' },
        location: 'lat=-33.9, long=18.4',
        address: 'Cape Town',
        geofence_radius: 25,
      });
      expect(json.status).toBe(202);
      const id = json.json().oneshot_list[0].id;
      const xml = await sys.api.post(`/clients/${device.identifier}/oneshots.json`, {
        token: token(),
        xml: `<oneshot xmlns:dm="${pushNamespace}"><dm:form_namespace>${sys.template.namespace}</dm:form_namespace><dm:location>lat=1, long=2</dm:location><dm:geofence_radius>7.5</dm:geofence_radius></oneshot>`,
      });
      expect(xml.status).toBe(202);
      const fromXml = xml.json().oneshot_list[0].id;

      const one: Dispatch = (await get(`/api/v3/dispatches/${id}.json?include_inputs=true`)).json();
      expectJsonDispatch(one, { org: sys.org, device, template: sys.template });
      expect(one).toMatchObject({ location: 'lat=-33.9, long=18.4', address: 'Cape Town', geofence_radius: 25, inputs: { customer_name: 'Legacy' } });
      expect((await get(`/api/v3/dispatches/${fromXml}.json`)).json()).toMatchObject({ location: 'lat=1, long=2', geofence_radius: 7.5, address: null });
    });
  });

  describe('read', () => {
    it('lists a device\'s dispatches by identifier or id, oldest first, {"dispatches":[…]} and <dispatches type="array"> element by element', async () => {
      const device = await enrollDevice(sys.api, sys.org);
      const first = await created(createV3(device.identifier, { form_namespace: sys.template.namespace, form_description: 'One', payload: {} }));
      const second = await created(createV3(device.id, { form_namespace: sys.template.namespace, payload: {}, address: 'Two & Co' }));

      const json = await get(`/api/v3/devices/${device.identifier}/dispatches.json`);
      expect(json.status).toBe(200);
      expect(Object.keys(json.json())).toEqual(['dispatches']);
      const dispatches = json.json().dispatches as Dispatch[];
      expect(dispatches).toEqual([first, second]);
      for (const d of dispatches) expectJsonDispatch(d, { org: sys.org, device, template: sys.template });
      expect((await get(`/api/v3/devices/${device.id}/dispatches.json`)).json()).toEqual(json.json());

      const xml = parseXmlBody(await get(`/api/v3/devices/${device.identifier}/dispatches.xml`));
      expect(Object.keys(xml)).toEqual(['dispatches']);
      expect(xml.dispatches['@_type']).toBe('array');
      expect(xml.dispatches.dispatch).toHaveLength(2);
      xml.dispatches.dispatch.forEach((element: Record<string, unknown>, n: number) => expectXmlDispatch(element, dispatches[n]!));
    });

    it('lists the organization\'s dispatches on /api/v3/organization_dispatches, JSON and XML', async () => {
      const device = await enrollDevice(sys.api, sys.org);
      const dispatch = await created(createV3(device.identifier, { form_namespace: sys.template.namespace, payload: {} }));
      const all = (await get('/api/v3/organization_dispatches.json?items=1000')).json().dispatches as Dispatch[];
      expect(all.find((d) => d.id === dispatch.id)).toEqual(dispatch);
      expect(all.every((d) => d.organization_id === sys.org.orgId)).toBe(true);
      const xml = parseXmlBody(await get('/api/v3/organization_dispatches.xml?items=1000'));
      const element = xml.dispatches.dispatch.find((e: { id: { '#text': string } }) => e.id['#text'] === String(dispatch.id));
      expectXmlDispatch(element, dispatch);
    });

    it('GET /api/v3/dispatches/<id>: the bare dispatch (v3/dispatch.md) or <dispatch>; include_inputs adds the inputs as pushed', async () => {
      const device = await enrollDevice(sys.api, sys.org);
      const payload = { customer_name: 'Acme', contact: { phone: '555', floor: '4' }, parts: [{ part_no: 'A-1' }, { part_no: 'B-7', qty: '2' }] };
      const dispatch = await created(createV3(device.identifier, { form_namespace: sys.template.namespace, payload }));

      const plain = await get(`/api/v3/dispatches/${dispatch.id}.json`);
      expect(plain.status).toBe(200);
      expect(plain.json()).toEqual(dispatch);
      expect((await get(`/api/v3/dispatches/${dispatch.id}.json?include_inputs=false`)).json()).toEqual(dispatch);

      const withInputs = (await get(`/api/v3/dispatches/${dispatch.id}.json?include_inputs=true`)).json() as Dispatch;
      expect(withInputs).toEqual({ ...dispatch, inputs: payload });

      const xml = parseXmlBody(await get(`/api/v3/dispatches/${dispatch.id}.xml?include_inputs=true`));
      expect(Object.keys(xml)).toEqual(['dispatch']);
      expectXmlDispatch(xml.dispatch, withInputs);
      expect(xml.dispatch.inputs).toEqual({ customer_name: 'Acme', contact: { phone: '555', floor: '4' }, parts: [{ part_no: 'A-1' }, { part_no: 'B-7', qty: '2' }] });
      expectXmlDispatch(parseXmlBody(await get(`/api/v3/dispatches/${dispatch.id}.xml`)).dispatch, dispatch);

      const bad = await get(`/api/v3/dispatches/${dispatch.id}.json?include_inputs=yes`);
      expect(bad.status).toBe(400);
      expect(bad.text).toMatch(/include_inputs/);
    });

    it('pages every list with items and page (defaults 100 and 1); a bad page or items is 400 naming it', async () => {
      const org = await createOrganization(sys.api, sys.adminToken);
      const template = await createTemplate(sys.api, org, inspectionForm);
      const device = await enrollDevice(sys.api, org);
      const ids: number[] = [];
      for (let n = 0; n < 3; n += 1) {
        const res = await sys.api.post(`/api/v3/devices/${device.identifier}/dispatches.json`, { token: org.token, json: { form_namespace: template.namespace, payload: {} } });
        ids.push(res.json().dispatch.id);
      }
      for (const path of [`/api/v3/devices/${device.identifier}/dispatches`, '/api/v3/organization_dispatches']) {
        const page = async (query: string) => {
          const res = await get(`${path}.json${query}`, org);
          expect(res.status).toBe(200);
          expect(res.headers.get('x-total-count')).toBe('3');
          return (res.json().dispatches as Dispatch[]).map((d) => d.id);
        };
        expect(await page('')).toEqual(ids);
        expect(await page('?items=2')).toEqual(ids.slice(0, 2));
        expect(await page('?items=2&page=2')).toEqual(ids.slice(2));
        expect(await page('?items=2&page=3')).toEqual([]);
        expect(await page('?page=2')).toEqual([]);
        const xml = parseXmlBody(await get(`${path}.xml?items=1&page=2`, org));
        expect(xml.dispatches.dispatch.map((e: { id: { '#text': string } }) => Number(e.id['#text']))).toEqual([ids[1]]);
        expect(parseXmlBody(await get(`${path}.xml?page=9`, org))).toEqual({ dispatches: { '@_type': 'array' } });

        for (const [query, name] of [
          ['page=0', 'page'],
          ['page=x', 'page'],
          ['page=-1', 'page'],
          ['page=1&page=2', 'page'],
          ['items=0', 'items'],
          ['items=1.5', 'items'],
          ['items=1001', 'items'],
        ]) {
          const res = await get(`${path}.json?${query}`, org);
          expect([query, res.status]).toEqual([query, 400]);
          expect(res.text).toMatch(new RegExp(`message: ${name}: `));
        }
      }
    });
  });

  describe('update and revoke', () => {
    it('PATCH /api/v3/devices/<identifier>/dispatches/<id>: 202 with the dispatch; the oneshot paths see the change', async () => {
      const device = await enrollDevice(sys.api, sys.org);
      const dispatch = await created(createV3(device.identifier, { form_namespace: sys.template.namespace, form_description: 'Before', payload: { customer_name: 'A' } }));
      const res = await sys.api.request('PATCH', `/api/v3/devices/${device.identifier}/dispatches/${dispatch.id}.json`, {
        token: token(),
        json: { form_namespace: sys.template.namespace, form_name: 'Renamed', payload: { comments: 'B' }, address: 'Gate 4' },
      });
      expect(res.status).toBe(202);
      const updated: Dispatch = res.json().dispatch;
      expect(updated).toMatchObject({ id: dispatch.id, name: 'Renamed', description: 'Before', address: 'Gate 4', namespace: dispatch.namespace });
      expect((await sys.api.get(`/device/oneshots/${dispatch.id}`, { bearer: device.secret })).json().oneshot.payload).toEqual({ comments: 'B' });
      expect((await get(`/clients/${device.identifier}/oneshots.json`)).json()).toEqual([expect.objectContaining({ id: dispatch.id, name: 'Renamed' })]);

      const xml = await sys.api.request('PATCH', `/api/v3/devices/${device.id}/dispatches/${dispatch.id}.xml`, {
        token: token(),
        xml: `<oneshot xmlns:dm="${pushNamespace}"><dm:form_description>After</dm:form_description><dm:geofence_radius>40</dm:geofence_radius><customer_name>C</customer_name></oneshot>`,
      });
      expect(xml.status).toBe(202);
      const element = parseXmlBody(xml).dispatch;
      expect([element.description, element['geofence-radius']]).toEqual(['After', { '#text': '40', '@_type': 'float' }]);
      expect((await sys.api.get(`/device/oneshots/${dispatch.id}`, { bearer: device.secret })).json().oneshot.payload).toEqual({ customer_name: 'C' });
    });

    it('an XML update takes one repetition of a group, as an XML create does', async () => {
      const device = await enrollDevice(sys.api, sys.org);
      const dispatch = await created(createV3(device.identifier, { form_namespace: sys.template.namespace, payload: {} }));
      const res = await sys.api.request('PATCH', `/api/v3/devices/${device.identifier}/dispatches/${dispatch.id}.xml`, {
        token: token(),
        xml: `<oneshot xmlns:dm="${pushNamespace}"><parts><part_no>P-1</part_no><qty>2</qty></parts></oneshot>`,
      });
      expect(res.status).toBe(202);
      expect((await sys.api.get(`/device/oneshots/${dispatch.id}`, { bearer: device.secret })).json().oneshot.payload).toEqual({
        parts: [{ part_no: 'P-1', qty: '2' }],
      });
    });

    it('the legacy PUT takes the new fields too', async () => {
      const device = await enrollDevice(sys.api, sys.org);
      const { id } = (await pushJson(sys.api, sys.org, device.identifier, { form_namespace: sys.template.namespace, payload: {} })).json().oneshot_list[0];
      const res = await sys.api.put(`/clients/${device.identifier}/oneshots/${id}`, { token: token(), json: { payload: {}, location: 'lat=10, long=20' } });
      expect(res.status).toBe(200);
      expect((await get(`/api/v3/dispatches/${id}.json`)).json().location).toBe('lat=10, long=20');
    });

    it('refuses a form_namespace other than the dispatch\'s own on update (400), changing nothing', async () => {
      const device = await enrollDevice(sys.api, sys.org);
      const other = await createTemplate(sys.api, sys.org, { ...inspectionForm, title: 'Another form' });
      const dispatch = await created(createV3(device.identifier, { form_namespace: sys.template.namespace, payload: {} }));
      const res = await sys.api.request('PATCH', `/api/v3/devices/${device.identifier}/dispatches/${dispatch.id}.json`, {
        token: token(),
        json: { form_namespace: other.namespace, form_name: 'Moved', payload: {} },
      });
      expect(res.status).toBe(400);
      expect(res.text).toMatch(/form_namespace: /);
      expect((await get(`/api/v3/dispatches/${dispatch.id}.json`)).json()).toEqual(dispatch);
    });

    it('DELETE on the device path and on /api/v3/dispatches/<id>: 200 empty, gone from every listing, then 404', async () => {
      const device = await enrollDevice(sys.api, sys.org);
      const one = await created(createV3(device.identifier, { form_namespace: sys.template.namespace, payload: {} }));
      const two = await created(createV3(device.identifier, { form_namespace: sys.template.namespace, payload: {} }));
      const kept = await created(createV3(device.identifier, { form_namespace: sys.template.namespace, payload: {} }));

      const byDevice = await sys.api.delete(`/api/v3/devices/${device.identifier}/dispatches/${one.id}.json`, { token: token() });
      expect([byDevice.status, byDevice.text]).toEqual([200, '']);
      const byId = await sys.api.delete(`/api/v3/dispatches/${two.id}.json`, { token: token() });
      expect([byId.status, byId.text]).toEqual([200, '']);

      expect(await legacyIds(device)).toEqual([kept.id]);
      expect(await v3DeviceIds(device)).toEqual([kept.id]);
      const orgIds = ((await get('/api/v3/organization_dispatches.json?items=1000')).json().dispatches as Dispatch[]).map((d) => d.id);
      expect(orgIds).toContain(kept.id);
      expect(orgIds).not.toContain(one.id);
      expect(orgIds).not.toContain(two.id);

      expect((await sys.api.delete(`/api/v3/dispatches/${two.id}.json`, { token: token() })).status).toBe(404);
      expect((await sys.api.delete(`/api/v3/devices/${device.identifier}/dispatches/${one.id}.json`, { token: token() })).status).toBe(404);
      const patch = await sys.api.request('PATCH', `/api/v3/devices/${device.identifier}/dispatches/${one.id}.json`, { token: token(), json: { payload: {} } });
      expect(patch.status).toBe(404);
    });

    it('revoking on the legacy path removes it from the v3 listing', async () => {
      const device = await enrollDevice(sys.api, sys.org);
      const dispatch = await created(createV3(device.identifier, { form_namespace: sys.template.namespace, payload: {} }));
      expect((await sys.api.delete(`/clients/${device.identifier}/oneshots/${dispatch.id}`, { token: token() })).status).toBe(200);
      expect(await v3DeviceIds(device)).toEqual([]);
    });

    it('POST /api/v3/devices/<identifier>/dispatches/destroy_all.json: 200 empty, the device has none left, others keep theirs', async () => {
      const device = await enrollDevice(sys.api, sys.org);
      const neighbour = await enrollDevice(sys.api, sys.org);
      await created(createV3(device.identifier, { form_namespace: sys.template.namespace, payload: {} }));
      await created(createV3(device.identifier, { form_namespace: sys.template.namespace, payload: {} }));
      const kept = await created(createV3(neighbour.identifier, { form_namespace: sys.template.namespace, payload: {} }));
      const res = await sys.api.post(`/api/v3/devices/${device.identifier}/dispatches/destroy_all.json`, { token: token() });
      expect([res.status, res.text]).toEqual([200, '']);
      expect(await v3DeviceIds(device)).toEqual([]);
      expect(await legacyIds(device)).toEqual([]);
      expect(await v3DeviceIds(neighbour)).toEqual([kept.id]);
    });
  });

  describe('unknown fields are refused, naming them, and create nothing', () => {
    it.each([
      ['v3 JSON', (d: TestDevice) => `/api/v3/devices/${d.identifier}/dispatches.json`, 'json'],
      ['v2 JSON', (d: TestDevice) => `/api/v2/devices/${d.identifier}/dispatches.json`, 'json'],
      ['legacy JSON', (d: TestDevice) => `/clients/${d.identifier}/oneshots.json`, 'json'],
      ['v3 XML', (d: TestDevice) => `/api/v3/devices/${d.identifier}/dispatches.xml`, 'xml'],
      ['v2 XML', (d: TestDevice) => `/api/v2/devices/${d.identifier}/dispatches.xml`, 'xml'],
      ['legacy XML', (d: TestDevice) => `/clients/${d.identifier}/oneshots`, 'xml'],
    ] as const)('create, %s: send_at', async (_name, path, kind) => {
      const device = await enrollDevice(sys.api, sys.org);
      const when = new Date(Date.now() + 3600_000).toISOString();
      const body =
        kind === 'json'
          ? { json: { form_namespace: sys.template.namespace, payload: {}, send_at: when } }
          : { xml: `<oneshot xmlns:dm="${pushNamespace}"><dm:form_namespace>${sys.template.namespace}</dm:form_namespace><dm:send_at>${when}</dm:send_at></oneshot>` };
      const res = await sys.api.post(path(device), { token: token(), ...body });
      expect(res.status).toBe(400);
      expect(res.text).toMatch(/message: send_at: unknown (field|element)/);
      expect(await legacyIds(device)).toEqual([]);
    });

    it('update, v3 PATCH (JSON and XML) and the legacy PUT: send_at', async () => {
      const device = await enrollDevice(sys.api, sys.org);
      const dispatch = await created(createV3(device.identifier, { form_namespace: sys.template.namespace, form_name: 'Kept', payload: {} }));
      const attempts = [
        sys.api.request('PATCH', `/api/v3/devices/${device.identifier}/dispatches/${dispatch.id}.json`, { token: token(), json: { payload: {}, form_name: 'X', send_at: 'now' } }),
        sys.api.request('PATCH', `/api/v3/devices/${device.identifier}/dispatches/${dispatch.id}.xml`, {
          token: token(),
          xml: `<oneshot xmlns:dm="${pushNamespace}"><dm:form_name>X</dm:form_name><dm:send_at>now</dm:send_at></oneshot>`,
        }),
        sys.api.put(`/clients/${device.identifier}/oneshots/${dispatch.id}`, { token: token(), json: { payload: {}, form_name: 'X', send_at: 'now' } }),
      ];
      for (const res of await Promise.all(attempts)) {
        expect(res.status).toBe(400);
        expect(res.text).toMatch(/message: send_at: unknown/);
      }
      expect((await get(`/api/v3/dispatches/${dispatch.id}.json`)).json().name).toBe('Kept');
    });

    it('a malformed scheduled_at or location is a 400 naming it', async () => {
      const device = await enrollDevice(sys.api, sys.org);
      for (const [field, value] of [
        ['scheduled_at', 'tomorrow'],
        ['location', '35.77, -78.63'],
        ['geofence_radius', -5],
      ] as const) {
        const res = await createV3(device.identifier, { form_namespace: sys.template.namespace, payload: {}, [field]: value });
        expect([field, res.status]).toEqual([field, 400]);
        expect(res.text).toMatch(new RegExp(`message: ${field}: `));
      }
      expect(await legacyIds(device)).toEqual([]);
    });
  });

  it('/api/v3/users/…: 404 on every method, saying Formcast has no web users', async () => {
    for (const [method, path] of [
      ['GET', '/api/v3/users/3/dispatches.json'],
      ['GET', '/api/v3/users/3/dispatches.xml'],
      ['POST', '/api/v3/users/3/dispatches.json'],
      ['PATCH', '/api/v3/users/3/dispatches/1.json'],
      ['DELETE', '/api/v3/users/3/dispatches/1.json'],
      ['POST', '/api/v3/users/3/dispatches/destroy_all.json'],
      ['GET', '/api/v3/users.json'],
    ] as const) {
      const res = await sys.api.request(method, path, { token: token(), ...(method === 'POST' || method === 'PATCH' ? { json: { form_namespace: 'x', payload: {} } } : {}) });
      expect([method, path, res.status]).toEqual([method, path, 404]);
      if (path.endsWith('.xml')) expect(parseXmlBody(res).errors.error).toMatch(/no web users/);
      else expect(res.json()).toEqual({ status: '404', error: 'Not Found', message: expect.stringMatching(/no web users/) });
    }
    expect((await sys.api.get('/api/v3/users/3/dispatches.json')).status).toBe(401);
  });

  it("another organization's device and dispatch ids are 404 on every new path, and stay untouched", async () => {
    const [mine, theirs] = sys.orgs;
    const theirDevice = await enrollDevice(sys.api, theirs);
    const theirDispatch = (
      await sys.api.post(`/api/v3/devices/${theirDevice.identifier}/dispatches.json`, { token: theirs.token, json: { form_namespace: otherTemplate.namespace, payload: { customer_name: 'Theirs' } } })
    ).json().dispatch as Dispatch;
    const myDevice = await enrollDevice(sys.api, mine);
    const body = { json: { form_namespace: sys.template.namespace, payload: {} } };

    for (const ref of [theirDevice.identifier, String(theirDevice.id)]) {
      for (const [method, path, options] of [
        ['GET', `/api/v3/devices/${ref}/dispatches.json`, {}],
        ['GET', `/api/v3/devices/${ref}/dispatches.xml`, {}],
        ['POST', `/api/v3/devices/${ref}/dispatches.json`, body],
        ['POST', `/api/v2/devices/${ref}/dispatches.xml`, { xml: `<oneshot><form_namespace>${sys.template.namespace}</form_namespace></oneshot>` }],
        ['PATCH', `/api/v3/devices/${ref}/dispatches/${theirDispatch.id}.json`, body],
        ['DELETE', `/api/v3/devices/${ref}/dispatches/${theirDispatch.id}.json`, {}],
        ['POST', `/api/v3/devices/${ref}/dispatches/destroy_all.json`, {}],
      ] as const) {
        const res = await sys.api.request(method, path, { token: mine.token, ...options });
        expect([method, path, res.status]).toEqual([method, path, 404]);
      }
    }
    for (const [method, path, options] of [
      ['GET', `/api/v3/dispatches/${theirDispatch.id}.json`, {}],
      ['GET', `/api/v3/dispatches/${theirDispatch.id}.xml?include_inputs=true`, {}],
      ['DELETE', `/api/v3/dispatches/${theirDispatch.id}.json`, {}],
      // My device, their dispatch.
      ['PATCH', `/api/v3/devices/${myDevice.identifier}/dispatches/${theirDispatch.id}.json`, body],
      ['PATCH', `/api/v3/devices/${myDevice.identifier}/dispatches/${theirDispatch.id}.json`, { json: { form_namespace: otherTemplate.namespace, payload: {} } }],
      ['DELETE', `/api/v3/devices/${myDevice.identifier}/dispatches/${theirDispatch.id}.json`, {}],
      ['GET', '/api/v3/dispatches/abc.json', {}],
    ] as const) {
      const res = await sys.api.request(method, path, { token: mine.token, ...options });
      expect([method, path, res.status]).toEqual([method, path, 404]);
    }
    expect(((await get('/api/v3/organization_dispatches.json?items=1000', mine)).json().dispatches as Dispatch[]).map((d) => d.organization_id)).not.toContain(theirs.orgId);
    expect(((await get('/api/v3/dispatch_authors.json', mine)).json().authors as Array<{ identifier: string }>).map((a) => a.identifier)).not.toContain(theirDevice.identifier);

    // Untouched: still theirs, as it was.
    const still = await get(`/api/v3/dispatches/${theirDispatch.id}.json?include_inputs=true`, theirs);
    expect(still.json()).toEqual({ ...theirDispatch, inputs: { customer_name: 'Theirs' } });
  });
});
