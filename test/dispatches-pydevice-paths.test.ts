import { XMLParser } from 'fast-xml-parser';
import type { DispatchView } from '@formcast/contracts';
import { createOrganization, enrollDevice, type TestDevice } from './support/fixtures';
import { createTemplate, inspectionForm } from './support/push-fixtures';
import { systemModes } from './support/start-system';
import { useSystem } from './support/use-system';

const xmlParser = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '@_', parseTagValue: false, ignoreDeclaration: true });

/**
 * Issue 22: the device-scoped show (v3/dispatch.md's shape, bare), a dispatch's author, the
 * author listings' pages, and the second-generation dispatch paths pydevice 0.3.3 calls
 * (`/api/v2/devices/<id>/dispatches…`, `/api/v2/organizations/<org>/dispatches`), each the
 * v3 handler; another organization's ids are 404 on each.
 */
describe.each(systemModes)('Dispatches: the device-scoped show, authors, and pydevice\'s v2 paths (%s)', (mode) => {
  const sys = useSystem(mode, { organizations: 2, template: inspectionForm });
  const get = (path: string, token = sys.org.token) => sys.api.get(path, { token });
  const create = async (device: TestDevice, payload: object = {}, token = sys.org.token, namespace = sys.template.namespace): Promise<DispatchView> => {
    const res = await sys.api.post(`/api/v3/devices/${device.identifier}/dispatches.json`, { token, json: { form_namespace: namespace, payload } });
    expect(res.status).toBe(202);
    return res.json().dispatch;
  };

  it('GET /api/v3/devices/<identifier>/dispatches/<id>: the bare dispatch with its author, <dispatch> in XML; another device\'s is 404', async () => {
    const device = await enrollDevice(sys.api, sys.org);
    const other = await enrollDevice(sys.api, sys.org);
    const dispatch = await create(device, { customer_name: 'Acme' });
    expect(dispatch).toMatchObject({ author_identifier: device.identifier, author_type: 'Device' });

    for (const ref of [device.identifier, String(device.id)]) {
      const json = await get(`/api/v3/devices/${ref}/dispatches/${dispatch.id}.json`);
      expect([json.status, json.json()]).toEqual([200, dispatch]);
      const withInputs = await get(`/api/v3/devices/${ref}/dispatches/${dispatch.id}.JSON?include_inputs=true`);
      expect(withInputs.json()).toEqual({ ...dispatch, inputs: { customer_name: 'Acme' } });
    }
    const xml = await get(`/api/v3/devices/${device.identifier}/dispatches/${dispatch.id}.xml`);
    expect(xml.headers.get('content-type')).toMatch(/^application\/xml/);
    const parsed = xmlParser.parse(xml.text);
    expect(Object.keys(parsed)).toEqual(['dispatch']);
    expect(parsed.dispatch).toMatchObject({ id: { '#text': String(dispatch.id), '@_type': 'integer' }, 'author-identifier': device.identifier, 'author-type': 'Device' });

    expect((await get(`/api/v3/devices/${other.identifier}/dispatches/${dispatch.id}.json`)).status).toBe(404);
    expect((await get(`/api/v3/devices/${device.identifier}/dispatches/987654321.json`)).status).toBe(404);
    // The organization-wide show is bare too.
    expect((await get(`/api/v3/dispatches/${dispatch.id}.json`)).json()).toEqual(dispatch);
  });

  it('dispatch_authors and submission_authors honour items and page', async () => {
    const org = await createOrganization(sys.api, sys.adminToken);
    const devices = [];
    for (let n = 0; n < 3; n += 1) devices.push(await enrollDevice(sys.api, org, { owner: `Tech ${n}` }));
    for (const listing of ['dispatch_authors', 'submission_authors']) {
      const all = (await get(`/api/v3/${listing}.json`, org.token)).json().authors.map((a: { identifier: string }) => a.identifier);
      expect(all).toEqual(devices.map((d) => d.identifier));
      const page = async (query: string) => (await get(`/api/v3/${listing}.json?${query}`, org.token)).json().authors.map((a: { identifier: string }) => a.identifier);
      expect(await page('items=2')).toEqual(all.slice(0, 2));
      expect(await page('items=2&page=2')).toEqual(all.slice(2));
      expect(await page('items=2&page=3')).toEqual([]);
      expect(await page('page=1')).toEqual(all);
      const xml = xmlParser.parse((await get(`/api/v3/${listing}.xml?items=1&page=2`, org.token)).text);
      expect(xml.authors.author.identifier).toBe(all[1]);
      for (const bad of ['items=0', 'page=-1', 'items=abc', 'items=1001']) {
        const res = await get(`/api/v3/${listing}.json?${bad}`, org.token);
        expect([bad, res.status]).toEqual([bad, 400]);
      }
    }
  });

  it("pydevice's v2 paths: the device's and the organization's lists, PATCH, DELETE and destroy_all under /api/v2", async () => {
    const device = await enrollDevice(sys.api, sys.org);
    const [one, two, three] = [await create(device), await create(device), await create(device)];

    const listed = await get(`/api/v2/devices/${device.identifier}/dispatches.json`);
    expect(listed.status).toBe(200);
    expect(listed.json()).toEqual({ dispatches: [one, two, three] });
    expect(listed.headers.get('x-total-count')).toBe('3');
    expect(xmlParser.parse((await get(`/api/v2/devices/${device.identifier}/dispatches.xml?items=1`)).text).dispatches.dispatch.id['#text']).toBe(String(one!.id));

    const organization = (await get(`/api/v2/organizations/${sys.org.orgId}/dispatches.json?items=1000`)).json().dispatches.map((d: DispatchView) => d.id);
    expect(organization).toEqual((await get('/api/v3/organization_dispatches.json?items=1000')).json().dispatches.map((d: DispatchView) => d.id));
    expect(organization).toEqual(expect.arrayContaining([one!.id, two!.id, three!.id]));

    const patched = await sys.api.request('PATCH', `/api/v2/devices/${device.identifier}/dispatches/${one!.id}.json`, { token: sys.org.token, json: { form_name: 'Renamed', payload: {} } });
    expect(patched.status).toBe(202);
    expect(patched.json().dispatch).toMatchObject({ id: one!.id, name: 'Renamed' });

    const deleted = await sys.api.delete(`/api/v2/devices/${device.identifier}/dispatches/${two!.id}.json`, { token: sys.org.token });
    expect([deleted.status, deleted.text]).toEqual([200, '']);
    expect((await get(`/api/v2/devices/${device.identifier}/dispatches.json`)).json().dispatches.map((d: DispatchView) => d.id)).toEqual([one!.id, three!.id]);

    const destroyed = await sys.api.post(`/api/v2/devices/${device.identifier}/dispatches/destroy_all.json`, { token: sys.org.token });
    expect([destroyed.status, destroyed.text]).toEqual([200, '']);
    expect((await get(`/api/v2/devices/${device.identifier}/dispatches.json`)).json()).toEqual({ dispatches: [] });
  });

  it("another organization's device, dispatch and organization ids are 404 on every new path, and their dispatch stays", async () => {
    const [mine, theirs] = sys.orgs;
    const theirTemplate = await createTemplate(sys.api, theirs, inspectionForm);
    const theirDevice = await enrollDevice(sys.api, theirs);
    const myDevice = await enrollDevice(sys.api, mine);
    const theirDispatch = await create(theirDevice, { customer_name: 'Theirs' }, theirs.token, theirTemplate.namespace);
    const body = { json: { payload: {} } };
    for (const [method, path, options] of [
      ['GET', `/api/v3/devices/${theirDevice.identifier}/dispatches/${theirDispatch.id}.json`, {}],
      ['GET', `/api/v3/devices/${myDevice.identifier}/dispatches/${theirDispatch.id}.json`, {}],
      ['GET', `/api/v2/devices/${theirDevice.identifier}/dispatches.json`, {}],
      ['GET', `/api/v2/organizations/${theirs.orgId}/dispatches.json`, {}],
      ['PATCH', `/api/v2/devices/${theirDevice.identifier}/dispatches/${theirDispatch.id}.json`, body],
      ['PATCH', `/api/v2/devices/${myDevice.identifier}/dispatches/${theirDispatch.id}.json`, body],
      ['DELETE', `/api/v2/devices/${theirDevice.identifier}/dispatches/${theirDispatch.id}.json`, {}],
      ['DELETE', `/api/v2/devices/${myDevice.identifier}/dispatches/${theirDispatch.id}.json`, {}],
      ['POST', `/api/v2/devices/${theirDevice.identifier}/dispatches/destroy_all.json`, {}],
    ] as const) {
      const res = await sys.api.request(method, path, { token: mine.token, ...options });
      expect([method, path, res.status]).toEqual([method, path, 404]);
    }
    const still = await get(`/api/v3/dispatches/${theirDispatch.id}.json?include_inputs=true`, theirs.token);
    expect(still.json()).toEqual({ ...theirDispatch, inputs: { customer_name: 'Theirs' } });
  });
});
