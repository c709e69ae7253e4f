import { XMLParser } from 'fast-xml-parser';
import type { DeviceV2View } from '@formcast/contracts';
import type { ApiResponse } from './support/api-client';
import { enrollDevice, type TestDevice, type TestOrganization } from './support/fixtures';
import { systemModes } from './support/start-system';
import { useSystem } from './support/use-system';

/** A device as the second generation documents it (observed-behaviour, "Later generations of the other APIs"), in its order. */
type DeviceV2 = DeviceV2View;

const documentedKeys = [
  'id',
  'identifier',
  'os_version',
  'app_identifier',
  'app_version',
  'organization_id',
  'owner',
  'description',
  'pending_approval',
  'groups',
  'custom_attributes',
] as const;

const xmlParser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@_',
  parseTagValue: false,
  ignoreDeclaration: true,
  isArray: (_name, jpath) => {
    const path = String(jpath);
    return ['devices.device', 'device.groups.name', 'devices.device.groups.name'].includes(path) || /custom_attributes\.custom_attribute$/.test(path);
  },
});

function parseXmlBody(res: ApiResponse): Record<string, any> {
  expect(res.headers.get('content-type')).toMatch(/^application\/xml/);
  expect(res.text.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n')).toBe(true);
  return xmlParser.parse(res.text);
}

/** A v2 JSON device, key by key, in the documented order. */
function expectJsonDevice(device: Record<string, unknown>, expected: DeviceV2): void {
  expect(Object.keys(device)).toEqual([...documentedKeys]);
  for (const key of documentedKeys) expect([key, device[key]]).toEqual([key, expected[key]]);
}

/** A v2 `<device>` element, element by element: underscored names, types, nil for what is empty. */
function expectXmlDevice(element: Record<string, any>, expected: DeviceV2): void {
  expect(Object.keys(element)).toEqual([...documentedKeys]);
  expect(element['id']).toEqual({ '#text': String(expected.id), '@_type': 'integer' });
  expect(element['identifier']).toBe(expected.identifier);
  for (const key of ['os_version', 'app_identifier', 'app_version', 'description'] as const) {
    const value = expected[key];
    expect([key, element[key]]).toEqual([key, value === null || value === '' ? { '@_nil': 'true' } : value]);
  }
  expect(element['organization_id']).toEqual({ '#text': String(expected.organization_id), '@_type': 'integer' });
  expect(element['owner']).toBe(expected.owner);
  expect(element['pending_approval']).toEqual({ '#text': String(expected.pending_approval), '@_type': 'boolean' });
  expect(element['groups']['@_type']).toBe('array');
  expect(element['groups']['name'] ?? []).toEqual(expected.groups.map((group) => group.name));
  expect(element['custom_attributes']['@_type']).toBe('array');
  const pairs = (element['custom_attributes']['custom_attribute'] ?? []) as Array<Record<string, unknown>>;
  for (const pair of pairs) expect(Object.keys(pair)).toEqual(['key', 'value']);
  expect(pairs.map(({ key, value }) => [key, value ?? ''])).toEqual(Object.entries(expected.custom_attributes));
}

describe.each(systemModes)('Devices v2: every generation, one record (%s)', (mode) => {
  const sys = useSystem(mode, { organizations: 2 });

  const v2 = (o: TestOrganization, rest = '') => `/api/v2/organizations/${o.orgId}/devices${rest}`;
  const v2Writes = (o: TestOrganization, rest = '') => `/api/organizations/${o.orgId}/devices${rest}`;
  const v1 = (o: TestOrganization, rest = '') => `/organizations/${o.orgId}/devices${rest}`;

  const showV2 = async (device: TestDevice, org = sys.org): Promise<DeviceV2> => {
    const res = await sys.api.get(v2(org, `/${device.id}.json`), { token: org.token });
    expect(res.status).toBe(200);
    return res.json();
  };
  const showV1 = async (device: TestDevice, org = sys.org) => {
    const res = await sys.api.get(v1(org, `/${device.id}.json`), { token: org.token });
    expect(res.status).toBe(200);
    return res.json().device;
  };

  let counter = 0;
  const newIdentifier = () => `iPhone_V2-${process.pid}-${Date.now()}-${(counter += 1)}`;

  it('shows the versions a device reports at enrollment, lists it while pending, and an approval on v2 is one on v1', async () => {
    const identifier = newIdentifier();
    const enrolled = await sys.api.post('/devices/enroll', {
      json: {
        enrollment_code: sys.org.enrollmentCode,
        identifier,
        owner: 'Ada',
        description: 'Van 7',
        os_version: 'iOS 17.4.1',
        app_identifier: 'com.devicemagic.forms',
        app_version: '7.12.0',
      },
    });
    expect(enrolled.status).toBe(201);
    // The enrollment answer stays the first generation's device.
    expect(Object.keys(enrolled.json().device)).toEqual(['id', 'identifier', 'organization_id', 'owner', 'description', 'pending_approval', 'groups', 'custom_attributes']);
    const id: number = enrolled.json().device.id;
    const expected: DeviceV2 = {
      id,
      identifier,
      os_version: 'iOS 17.4.1',
      app_identifier: 'com.devicemagic.forms',
      app_version: '7.12.0',
      organization_id: sys.org.orgId,
      owner: 'Ada',
      description: 'Van 7',
      pending_approval: true,
      groups: [{ name: 'Default' }],
      custom_attributes: {},
    };

    const list = await sys.api.get(v2(sys.org, '.json'), { token: sys.org.token });
    expect(list.status).toBe(200);
    expect(Object.keys(list.json())).toEqual(['devices']);
    const listed = (list.json().devices as DeviceV2[]).find((d) => d.id === id);
    expectJsonDevice(listed as unknown as Record<string, unknown>, expected);
    expect((await sys.api.get(v1(sys.org, '.json'), { token: sys.org.token })).json().devices.map((d: { id: number }) => d.id)).not.toContain(id);

    const approved = await sys.api.post(v2Writes(sys.org, `/${id}/approve`), { token: sys.org.token });
    expect(approved.status).toBe(200);
    expect(Object.keys(approved.json())).toEqual(['device']);
    expectJsonDevice(approved.json().device, { ...expected, pending_approval: false });

    const onV1 = await sys.api.get(v1(sys.org, '.json'), { token: sys.org.token });
    expect(onV1.json().devices.find((d: { id: number }) => d.id === id)).toEqual({
      id,
      identifier,
      organization_id: sys.org.orgId,
      owner: 'Ada',
      description: 'Van 7',
      pending_approval: false,
      groups: 'Default',
      custom_attributes: {},
    });
    const shown = await sys.api.get(v2(sys.org, `/${id}.json`), { token: sys.org.token });
    // Bare, as v2/devices.md shows the show.
    expectJsonDevice(shown.json(), { ...expected, pending_approval: false });
  });

  it('answers the list and one device in XML, element by element, and JSON without a suffix', async () => {
    await sys.api.post(`/organizations/${sys.org.orgId}/groups`, { token: sys.org.token, json: ['Field Crew'] });
    const device = await enrollDevice(sys.api, sys.org, { identifier: newIdentifier(), owner: 'Grace' });
    const updated = await sys.api.put(v1(sys.org, `/${device.id}.json`), {
      token: sys.org.token,
      json: { device: { groups: 'Default,Field Crew', custom_attributes: { region: 'North', 'asset.tag': 'A & B <17>', blank: '' } } },
    });
    expect(updated.status).toBe(202);
    const expected: DeviceV2 = {
      id: device.id,
      identifier: device.identifier,
      os_version: null,
      app_identifier: null,
      app_version: null,
      organization_id: sys.org.orgId,
      owner: 'Grace',
      description: '',
      pending_approval: false,
      groups: [{ name: 'Default' }, { name: 'Field Crew' }],
      custom_attributes: { region: 'North', 'asset.tag': 'A & B <17>', blank: '' },
    };

    const list = await sys.api.get(v2(sys.org, '.xml'), { token: sys.org.token });
    expect(list.status).toBe(200);
    const parsed = parseXmlBody(list);
    expect(Object.keys(parsed)).toEqual(['devices']);
    expect(parsed['devices']['@_type']).toBe('array');
    const element = (parsed['devices']['device'] as Array<Record<string, any>>).find((d) => d['identifier'] === device.identifier);
    expectXmlDevice(element!, expected);
    expect(list.text).toContain('<groups type="array">\n      <name>Default</name>\n      <name>Field Crew</name>\n    </groups>');
    expect(list.text).toContain('<custom_attribute>\n        <key>asset.tag</key>\n        <value>A &amp; B &lt;17&gt;</value>\n      </custom_attribute>');
    expect(list.text).not.toMatch(/<[a-z]+-[a-z-]+[ >/]/); // no dashed names in this generation

    const one = await sys.api.get(v2(sys.org, `/${device.id}.xml`), { token: sys.org.token });
    const oneParsed = parseXmlBody(one);
    expect(Object.keys(oneParsed)).toEqual(['device']);
    expectXmlDevice(oneParsed['device'], expected);

    const byAccept = await sys.api.get(v2(sys.org, `/${device.id}`), { token: sys.org.token, headers: { accept: 'application/xml' } });
    expectXmlDevice(parseXmlBody(byAccept)['device'], expected);
    const plain = await sys.api.get(v2(sys.org, `/${device.id}`), { token: sys.org.token });
    expect(plain.headers.get('content-type')).toMatch(/^application\/json/);
    expectJsonDevice(plain.json(), expected);
    expect((await sys.api.get(v2(sys.org, `/${device.id}.yaml`), { token: sys.org.token })).status).toBe(404);
  });

  it('sets custom attributes on v1 (JSON and XML) and reads them on v2, and on v2 (JSON and XML) read on v1', async () => {
    const device = await enrollDevice(sys.api, sys.org, { identifier: newIdentifier() });

    const v1Json = await sys.api.put(v1(sys.org, `/${device.id}.json`), { token: sys.org.token, json: { device: { custom_attributes: { region: 'North', floor: '3' } } } });
    expect(v1Json.status).toBe(202);
    expect(v1Json.json().device.custom_attributes).toEqual({ region: 'North', floor: '3' });
    expect((await showV2(device)).custom_attributes).toEqual({ region: 'North', floor: '3' });

    const v1Xml = await sys.api.put(v1(sys.org, `/${device.id}`), {
      token: sys.org.token,
      xml: '<device><custom-attributes><custom-attribute><key>region</key><value>South</value></custom-attribute></custom-attributes></device>',
    });
    expect(v1Xml.status).toBe(202);
    const v1Parsed = xmlParser.parse(v1Xml.text);
    expect(v1Parsed['device']['custom-attributes']).toEqual({ 'custom-attribute': { key: 'region', value: 'South' } });
    expect((await showV2(device)).custom_attributes).toEqual({ region: 'South' }); // replaced, not merged

    const v2Json = await sys.api.put(v2Writes(sys.org, `/${device.id}.json`), {
      token: sys.org.token,
      json: { device: { owner: 'Linus', custom_attributes: { team: 'Blue', 'cost.centre': '$12' } } },
    });
    expect(v2Json.status).toBe(202);
    expect(Object.keys(v2Json.json().device)).toEqual([...documentedKeys]);
    expect(v2Json.json().device).toMatchObject({ owner: 'Linus', custom_attributes: { team: 'Blue', 'cost.centre': '$12' } });
    expect(await showV1(device)).toMatchObject({ owner: 'Linus', custom_attributes: { team: 'Blue', 'cost.centre': '$12' } });

    const v2Xml = await sys.api.request('PATCH', v2Writes(sys.org, `/${device.id}.xml`), {
      token: sys.org.token,
      xml: '<device><custom_attributes type="array"><custom_attribute><key>team</key><value>Red</value></custom_attribute><custom_attribute><key>note</key><value/></custom_attribute></custom_attributes></device>',
    });
    expect(v2Xml.status).toBe(202);
    expectXmlDevice(parseXmlBody(v2Xml)['device'], { ...(await showV2(device)), custom_attributes: { team: 'Red', note: '' } });
    expect((await showV1(device)).custom_attributes).toEqual({ team: 'Red', note: '' });
    const v1XmlRead = xmlParser.parse((await sys.api.get(v1(sys.org, `/${device.id}.xml`), { token: sys.org.token })).text);
    expect(v1XmlRead['device']['custom-attributes']['custom-attribute']).toEqual([
      { key: 'team', value: 'Red' },
      { key: 'note', value: '' },
    ]);

    const cleared = await sys.api.put(v2Writes(sys.org, `/${device.id}.json`), { token: sys.org.token, json: { device: { custom_attributes: {} } } });
    expect(cleared.json().device.custom_attributes).toEqual({});
    expect((await sys.api.get(v1(sys.org, `/${device.id}.xml`), { token: sys.org.token })).text).toContain('<custom-attributes/>');
  });

  it('refuses custom attributes of a bad shape with 400 naming the field, on both generations, changing nothing', async () => {
    const device = await enrollDevice(sys.api, sys.org, { identifier: newIdentifier(), owner: 'Kept' });
    await sys.api.put(v1(sys.org, `/${device.id}.json`), { token: sys.org.token, json: { device: { custom_attributes: { region: 'North' } } } });
    const tooMany = Object.fromEntries(Array.from({ length: 51 }, (_, n) => [`n${n}`, 'v']));
    const bad: unknown[] = [['North'], 'region=North', null, { floor: 3 }, { '': 'x' }, { ['k'.repeat(65)]: 'v' }, { note: 'v'.repeat(256) }, tooMany];
    for (const path of [v1(sys.org, `/${device.id}.json`), v2Writes(sys.org, `/${device.id}.json`)]) {
      for (const custom_attributes of bad) {
        const res = await sys.api.put(path, { token: sys.org.token, json: { device: { owner: 'Changed', custom_attributes } } });
        expect([path, res.status]).toEqual([path, 400]);
        expect(res.text).toMatch(/^response_type: ERROR\nresponse_code: bad_request\nmessage: custom_attributes: /);
      }
    }
    const xmlDuplicate = await sys.api.put(v2Writes(sys.org, `/${device.id}`), {
      token: sys.org.token,
      xml: '<device><owner>Changed</owner><custom_attributes><custom_attribute><key>a</key><value>1</value></custom_attribute><custom_attribute><key>a</key><value>2</value></custom_attribute></custom_attributes></device>',
    });
    expect(xmlDuplicate.status).toBe(400);
    expect(xmlDuplicate.text).toMatch(/custom_attributes: the name "a" is given twice/);
    const xmlNoKey = await sys.api.put(v2Writes(sys.org, `/${device.id}`), {
      token: sys.org.token,
      xml: '<device><custom_attributes><custom_attribute><value>1</value></custom_attribute></custom_attributes></device>',
    });
    expect(xmlNoKey.status).toBe(400);
    expect(xmlNoKey.text).toMatch(/custom_attributes: each <custom_attribute> needs a <key>/);

    expect(await showV2(device)).toMatchObject({ owner: 'Kept', custom_attributes: { region: 'North' } });
  });

  it('updates on v1 and reads on v2, and updates groups on v2 (as {"name"} objects or XML <name>s) read on v1', async () => {
    await sys.api.post(`/organizations/${sys.org.orgId}/groups`, { token: sys.org.token, json: ['North', 'South'] });
    const device = await enrollDevice(sys.api, sys.org, { identifier: newIdentifier() });

    await sys.api.put(v1(sys.org, `/${device.id}`), {
      token: sys.org.token,
      xml: '<device><owner>Grace</owner><description>Van 9</description><groups>Default,North</groups></device>',
    });
    expect(await showV2(device)).toMatchObject({ owner: 'Grace', description: 'Van 9', groups: [{ name: 'Default' }, { name: 'North' }] });

    const byObjects = await sys.api.put(v2Writes(sys.org, `/${device.id}`), { token: sys.org.token, json: { device: { groups: [{ name: 'South' }] } } });
    expect(byObjects.status).toBe(202);
    expect(byObjects.headers.get('content-type')).toMatch(/^application\/json/);
    expect(byObjects.json().device.groups).toEqual([{ name: 'South' }]);
    expect((await showV1(device)).groups).toBe('South');

    const byXml = await sys.api.put(v2Writes(sys.org, `/${device.id}`), {
      token: sys.org.token,
      xml: '<device><groups type="array"><name>North</name><name>South</name></groups></device>',
    });
    expect(byXml.status).toBe(202);
    expect(parseXmlBody(byXml)['device']['groups']).toEqual({ '@_type': 'array', name: ['North', 'South'] });
    expect(await showV1(device)).toMatchObject({ owner: 'Grace', description: 'Van 9', groups: 'North,South' });

    const unknownGroup = await sys.api.put(v2Writes(sys.org, `/${device.id}`), { token: sys.org.token, json: { device: { groups: [{ name: 'Nowhere' }] } } });
    expect(unknownGroup.status).toBe(400);
    expect(unknownGroup.text).toMatch(/Nowhere/);
    const badGroup = await sys.api.put(v2Writes(sys.org, `/${device.id}`), { token: sys.org.token, json: { device: { groups: [{ title: 'North' }] } } });
    expect(badGroup.status).toBe(400);
    expect(badGroup.text).toMatch(/groups: /);
    expect((await showV1(device)).groups).toBe('North,South');
  });

  it('lets a device report its OS and app versions with its secret (PATCH or PUT /device), read on v2', async () => {
    const device = await enrollDevice(sys.api, sys.org, { identifier: newIdentifier() });
    const patched = await sys.api.request('PATCH', '/device', { bearer: device.secret, json: { os_version: 'Android 14', app_version: '7.12.0' } });
    expect(patched.status).toBe(200);
    expect(patched.json()).toEqual({
      device: { id: device.id, identifier: device.identifier, os_version: 'Android 14', app_identifier: null, app_version: '7.12.0' },
    });
    const put = await sys.api.put('/device', { bearer: device.secret, json: { app_identifier: 'com.devicemagic.forms', app_version: '7.13.0' } });
    expect(put.status).toBe(200);
    expect(await showV2(device)).toMatchObject({ os_version: 'Android 14', app_identifier: 'com.devicemagic.forms', app_version: '7.13.0' });
    const xml = parseXmlBody(await sys.api.get(v2(sys.org, `/${device.id}.xml`), { token: sys.org.token }));
    expect(xml['device']).toMatchObject({ os_version: 'Android 14', app_identifier: 'com.devicemagic.forms', app_version: '7.13.0' });
    // The first generation's shapes gain nothing.
    expect(Object.keys(await showV1(device))).toEqual(['id', 'identifier', 'organization_id', 'owner', 'description', 'pending_approval', 'groups', 'custom_attributes']);
  });

  it('refuses a bad version report (400), a pending device (403) and a wrong secret (401), changing nothing', async () => {
    const device = await enrollDevice(sys.api, sys.org, { identifier: newIdentifier() });
    await sys.api.request('PATCH', '/device', { bearer: device.secret, json: { os_version: 'Android 13' } });
    const refusals: Array<[unknown, RegExp]> = [
      [{}, /Report at least one of os_version, app_identifier, app_version/],
      [{ osVersion: 'Android 15' }, /Report at least one of/],
      [{ os_version: 15 }, /os_version: /],
      [{ app_version: null }, /app_version: /],
      [{ app_identifier: 'x'.repeat(256) }, /app_identifier: /],
      [['Android 15'], /Expected a JSON object/],
    ];
    for (const [json, message] of refusals) {
      const res = await sys.api.request('PATCH', '/device', { bearer: device.secret, json });
      expect([JSON.stringify(json).slice(0, 40), res.status]).toEqual([JSON.stringify(json).slice(0, 40), 400]);
      expect(res.text).toMatch(message);
    }
    expect((await sys.api.request('PATCH', '/device', { bearer: device.secret, xml: '<device><os_version>1</os_version></device>' })).status).toBe(415);

    const pending = await enrollDevice(sys.api, sys.org, { identifier: newIdentifier(), approve: false });
    expect((await sys.api.request('PATCH', '/device', { bearer: pending.secret, json: { os_version: 'Android 15' } })).status).toBe(403);
    expect((await sys.api.request('PATCH', '/device', { bearer: 'not-a-secret', json: { os_version: 'Android 15' } })).status).toBe(401);

    expect(await showV2(device)).toMatchObject({ os_version: 'Android 13', app_identifier: null, app_version: null });
    expect(await showV2(pending)).toMatchObject({ os_version: null, pending_approval: true });
  });

  it('approves and deletes under /api/v2/organizations/<org>/devices/<id> too (api_v2_readme.md), as under /api/organizations', async () => {
    const pending = await enrollDevice(sys.api, sys.org, { identifier: newIdentifier(), approve: false });
    const approved = await sys.api.post(v2(sys.org, `/${pending.id}/approve.json`), { token: sys.org.token });
    expect(approved.status).toBe(200);
    expect(approved.json().device).toMatchObject({ id: pending.id, pending_approval: false });
    expect((await showV2(pending)).pending_approval).toBe(false);
    const asXml = await sys.api.post(v2(sys.org, `/${pending.id}/approve.XML`), { token: sys.org.token });
    expect([asXml.status, parseXmlBody(asXml)['device']['identifier']]).toEqual([200, pending.identifier]);

    const deleted = await sys.api.delete(v2(sys.org, `/${pending.id}.json`), { token: sys.org.token });
    expect([deleted.status, deleted.text]).toEqual([200, '']);
    expect((await sys.api.get(v2(sys.org, `/${pending.id}.json`), { token: sys.org.token })).status).toBe(404);
    expect((await sys.api.delete(v2(sys.org, `/${pending.id}`), { token: sys.org.token })).status).toBe(404);
  });

  it('deletes on v2 (200, empty body): gone on both generations; unknown ids are 404 on every new path', async () => {
    const device = await enrollDevice(sys.api, sys.org, { identifier: newIdentifier() });
    const deleted = await sys.api.delete(v2Writes(sys.org, `/${device.id}`), { token: sys.org.token });
    expect(deleted.status).toBe(200);
    expect(deleted.text).toBe('');
    expect((await sys.api.get(v1(sys.org, `/${device.id}.json`), { token: sys.org.token })).status).toBe(404);
    const missing = await sys.api.get(v2(sys.org, `/${device.id}.json`), { token: sys.org.token });
    expect(missing.status).toBe(404);
    expect(missing.json()).toMatchObject({ status: '404', error: 'Not Found' });
    for (const id of [device.id, 987654, 'abc']) {
      expect((await sys.api.get(v2(sys.org, `/${id}.xml`), { token: sys.org.token })).status).toBe(404);
      expect((await sys.api.put(v2Writes(sys.org, `/${id}.json`), { token: sys.org.token, json: { device: { owner: 'x' } } })).status).toBe(404);
      expect((await sys.api.request('PATCH', v2Writes(sys.org, `/${id}.json`), { token: sys.org.token, json: { device: { owner: 'x' } } })).status).toBe(404);
      expect((await sys.api.delete(v2Writes(sys.org, `/${id}`), { token: sys.org.token })).status).toBe(404);
      expect((await sys.api.post(v2Writes(sys.org, `/${id}/approve`), { token: sys.org.token })).status).toBe(404);
      expect((await sys.api.post(v2(sys.org, `/${id}/approve`), { token: sys.org.token })).status).toBe(404);
      expect((await sys.api.delete(v2(sys.org, `/${id}.json`), { token: sys.org.token })).status).toBe(404);
      // The path's id before the body's refusal.
      const badBody = await sys.api.put(v2Writes(sys.org, `/${id}.json`), { token: sys.org.token, json: { device: { custom_attributes: 'bad' } } });
      expect([id, badBody.status]).toEqual([id, 404]);
    }
  });

  it("answers 404 for another organization's devices and organization on every new path, 401 without a token", async () => {
    const theirs = await enrollDevice(sys.api, sys.orgs[1], { identifier: newIdentifier(), owner: 'Theirs' });
    await sys.api.put(v1(sys.orgs[1], `/${theirs.id}.json`), { token: sys.orgs[1].token, json: { device: { custom_attributes: { secret: 'theirs' } } } });
    const mine = sys.org.token;

    const listed = await sys.api.get(v2(sys.org, '.json'), { token: mine });
    expect(listed.json().devices.map((d: { id: number }) => d.id)).not.toContain(theirs.id);
    expect(listed.text).not.toContain(theirs.identifier);

    const answers: Array<[string, ApiResponse]> = [
      ['show mine/theirs', await sys.api.get(v2(sys.org, `/${theirs.id}.json`), { token: mine })],
      ['show mine/theirs xml', await sys.api.get(v2(sys.org, `/${theirs.id}.xml`), { token: mine })],
      ['list of theirs', await sys.api.get(v2(sys.orgs[1], '.json'), { token: mine })],
      ['show theirs/theirs', await sys.api.get(v2(sys.orgs[1], `/${theirs.id}.json`), { token: mine })],
      ['put mine/theirs', await sys.api.put(v2Writes(sys.org, `/${theirs.id}.json`), { token: mine, json: { device: { owner: 'Mine', custom_attributes: { x: 'y' } } } })],
      ['patch mine/theirs', await sys.api.request('PATCH', v2Writes(sys.org, `/${theirs.id}.json`), { token: mine, json: { device: { owner: 'Mine' } } })],
      ['put theirs/theirs', await sys.api.put(v2Writes(sys.orgs[1], `/${theirs.id}.json`), { token: mine, json: { device: { owner: 'Mine' } } })],
      ['put theirs/theirs bad body', await sys.api.put(v2Writes(sys.orgs[1], `/${theirs.id}.json`), { token: mine, json: { device: { custom_attributes: 3 } } })],
      ['put mine/theirs bad body', await sys.api.put(v2Writes(sys.org, `/${theirs.id}.json`), { token: mine, json: { device: { custom_attributes: 3 } } })],
      ['approve mine/theirs', await sys.api.post(v2Writes(sys.org, `/${theirs.id}/approve`), { token: mine })],
      ['approve theirs/theirs', await sys.api.post(v2Writes(sys.orgs[1], `/${theirs.id}/approve`), { token: mine })],
      ['delete mine/theirs', await sys.api.delete(v2Writes(sys.org, `/${theirs.id}`), { token: mine })],
      ['delete theirs/theirs', await sys.api.delete(v2Writes(sys.orgs[1], `/${theirs.id}`), { token: mine })],
      ['v2 approve mine/theirs', await sys.api.post(v2(sys.org, `/${theirs.id}/approve.json`), { token: mine })],
      ['v2 approve theirs/theirs', await sys.api.post(v2(sys.orgs[1], `/${theirs.id}/approve.json`), { token: mine })],
      ['v2 delete mine/theirs', await sys.api.delete(v2(sys.org, `/${theirs.id}.json`), { token: mine })],
      ['v2 delete theirs/theirs', await sys.api.delete(v2(sys.orgs[1], `/${theirs.id}`), { token: mine })],
      ['v1 put custom attributes mine/theirs', await sys.api.put(v1(sys.org, `/${theirs.id}.json`), { token: mine, json: { device: { custom_attributes: { x: 'y' } } } })],
    ];
    for (const [what, res] of answers) {
      expect([what, res.status]).toEqual([what, 404]);
      expect(res.text).not.toContain(theirs.identifier);
    }

    const anonymous: Array<[string, ApiResponse]> = [
      ['list', await sys.api.get(v2(sys.org, '.json'))],
      ['show', await sys.api.get(v2(sys.org, `/${theirs.id}.json`))],
      ['put', await sys.api.put(v2Writes(sys.org, `/${theirs.id}.json`), { json: { device: { owner: 'x' } } })],
      ['approve', await sys.api.post(v2Writes(sys.org, `/${theirs.id}/approve`))],
      ['delete', await sys.api.delete(v2Writes(sys.org, `/${theirs.id}`))],
    ];
    for (const [what, res] of anonymous) {
      expect([what, res.status]).toEqual([what, 401]);
      expect(res.headers.get('www-authenticate')).toMatch(/^Basic realm=/);
    }

    const stillTheirs = await showV2(theirs, sys.orgs[1]);
    expect(stillTheirs).toMatchObject({ owner: 'Theirs', custom_attributes: { secret: 'theirs' } });
  });
});
