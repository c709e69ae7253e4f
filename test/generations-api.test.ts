import { readFileSync } from 'node:fs';
import { XMLParser } from 'fast-xml-parser';
import type { ApiResponse } from './support/api-client';
import { createForm, createOrganization, enrollDevice, type TestOrganization } from './support/fixtures';
import { systemModes } from './support/start-system';
import { useSystem } from './support/use-system';
import { mime, realSpreadsheetPath, xlsxWorkbook } from './fixtures/resource-files';

const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** The XML lists of these APIs, by path: always arrays, even of one. */
const xmlLists = new Set([
  'groups.group',
  'groups.group.form_ids.form_id',
  'groups.group.device_ids.device_id',
  'group.form_ids.form_id',
  'group.device_ids.device_id',
  'resources.resource',
  'resource.generated_content_summary.tables.table',
  'resource.generated_content_summary.tables.table.columns.column',
]);

/** Attributes kept (`@_type`), values as text, lists always arrays: what the XML says, nothing guessed. */
const xmlParser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@_',
  parseTagValue: false,
  ignoreDeclaration: true,
  isArray: (_name, path) => typeof path === 'string' && xmlLists.has(path),
});

function parseXml(res: ApiResponse): any {
  expect(res.headers.get('content-type')).toMatch(/^application\/xml/);
  expect(res.text.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n')).toBe(true);
  return xmlParser.parse(res.text, true);
}

function fileJson(fileName: string, bytes: Buffer, contentType: unknown) {
  return { file_name: fileName, file_data: bytes.toString('base64'), content_type: contentType };
}

function expectPlainBadRequest(res: ApiResponse): void {
  expect(res.status).toBe(400);
  expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
  expect(res.text).toMatch(/^response_type: ERROR\nresponse_code: bad_request\nmessage: .+/);
}

function expectJsonNotFound(res: ApiResponse): void {
  expect(res.status).toBe(404);
  expect(res.json()).toMatchObject({ status: '404', error: 'Not Found' });
}

function expectXmlNotFound(res: ApiResponse): void {
  expect(res.status).toBe(404);
  expect(typeof parseXml(res).errors.error).toBe('string');
}

describe.each(systemModes)('Groups v2 (%s)', (mode) => {
  const sys = useSystem(mode, { organizations: 2 });

  const v1Groups = (o: TestOrganization, suffix = '') => `/organizations/${o.orgId}/groups${suffix}`;
  const v2List = (o: TestOrganization, suffix = '') => `/api/v2/organizations/${o.orgId}/groups${suffix}`;
  const v2Groups = (o: TestOrganization, suffix = '') => `/api/organizations/${o.orgId}/groups${suffix}`;
  const listV1 = async (o: TestOrganization) => (await sys.api.get(v1Groups(o, '.json'), { token: o.token })).json().groups;
  const listV2 = async (o: TestOrganization) => (await sys.api.get(v2List(o, '.json'), { token: o.token })).json().groups;
  const named = (groups: Array<{ name: string }>, name: string) => groups.find((g) => g.name === name) as any;

  it('lists a new organization\'s Default group on v2 in the first generation\'s shapes, JSON and XML', async () => {
    const fresh = await createOrganization(sys.api, sys.adminToken);
    const json = await sys.api.get(v2List(fresh, '.json'), { token: fresh.token });
    expect(json.status).toBe(200);
    expect(json.headers.get('content-type')).toMatch(/^application\/json/);
    const body = json.json();
    expect(Object.keys(body)).toEqual(['groups']);
    expect(body.groups).toHaveLength(1);
    expect(Object.keys(body.groups[0])).toEqual(['id', 'name', 'form_ids', 'device_ids', 'tags']);
    expect(body.groups[0]).toEqual({ id: expect.any(Number), name: 'Default', form_ids: [], device_ids: [], tags: [] });

    const xml = await sys.api.get(v2List(fresh, '.xml'), { token: fresh.token });
    expect(xml.status).toBe(200);
    const parsed = parseXml(xml);
    expect(parsed.groups['@_type']).toBe('array');
    expect(parsed.groups.group).toEqual([
      {
        id: { '#text': String(body.groups[0].id), '@_type': 'integer' },
        name: 'Default',
        form_ids: { '@_type': 'array' },
        device_ids: { '@_type': 'array' },
        tags: { '@_type': 'array' },
      },
    ]);
    // Without a suffix, XML, as the first generation answers.
    expect((await sys.api.get(v2List(fresh), { token: fresh.token })).text).toBe(xml.text);
    // The same answer, byte for byte, as the first generation's path.
    expect((await sys.api.get(v1Groups(fresh, '.xml'), { token: fresh.token })).text).toBe(xml.text);
    expect((await sys.api.get(v1Groups(fresh, '.json'), { token: fresh.token })).text).toBe(json.text);
  });

  it('creates on v2 (201, then 304) what v1 lists, and lists on v2 what v1 created', async () => {
    const created = await sys.api.post(v2Groups(sys.org), { token: sys.org.token, json: ['V2 crew', 'V2 night crew'] });
    expect(created.status).toBe(201);
    expect(created.json().groups.map((g: { name: string }) => g.name)).toEqual(['V2 crew', 'V2 night crew']);
    const v1 = await listV1(sys.org);
    for (const group of created.json().groups) expect(v1).toContainEqual(group);

    expect((await sys.api.post(v2Groups(sys.org, '.json'), { token: sys.org.token, json: ['V2 crew'] })).status).toBe(304);
    expect((await listV1(sys.org)).filter((g: { name: string }) => g.name === 'V2 crew')).toHaveLength(1);

    const fromXml = await sys.api.post(v2Groups(sys.org), {
      token: sys.org.token,
      xml: '<groups><group><name>V2 &amp; XML</name></group></groups>',
    });
    expect(fromXml.status).toBe(201);
    expect(parseXml(fromXml).groups.group.map((g: { name: string }) => g.name)).toEqual(['V2 & XML']);

    const fromV1 = await sys.api.post(v1Groups(sys.org), { token: sys.org.token, json: ['Made on v1'] });
    expect(fromV1.status).toBe(201);
    const [madeOnV1] = fromV1.json().groups;
    expect(named(await listV2(sys.org), 'Made on v1')).toEqual(madeOnV1);
    expect(named(await listV2(sys.org), 'V2 & XML')).toBeDefined();
  });

  it('updates on v2 what v1 reads (JSON and XML bodies), and v1 updates show on v2', async () => {
    const form = await createForm(sys.api, sys.org, 'Moved on v2');
    const device = await enrollDevice(sys.api, sys.org);
    const [group] = (await sys.api.post(v2Groups(sys.org), { token: sys.org.token, json: ['To update'] })).json().groups;

    const updated = await sys.api.put(v2Groups(sys.org, `/${group.id}.json`), {
      token: sys.org.token,
      json: { group: { name: 'Updated on v2', form_ids: [form.id], device_ids: [device.id] } },
    });
    expect(updated.status).toBe(200);
    expect(updated.json()).toEqual({ group: { id: group.id, name: 'Updated on v2', form_ids: [form.id], device_ids: [device.id], tags: [] } });
    expect(named(await listV1(sys.org), 'Updated on v2')).toEqual(updated.json().group);
    expect(named(await listV1(sys.org), 'Default').form_ids).not.toContain(form.id);

    const fromXml = await sys.api.put(v2Groups(sys.org, `/${group.id}`), { token: sys.org.token, xml: '<group><form_ids/></group>' });
    expect(fromXml.status).toBe(200);
    const parsed = parseXml(fromXml).group;
    expect(parsed.form_ids).toEqual({ '@_type': 'array' });
    expect(parsed.device_ids.device_id).toEqual([{ '#text': String(device.id), '@_type': 'integer' }]);
    // Dropped from its group, the form is back in Default on both generations.
    expect(named(await listV1(sys.org), 'Default').form_ids).toContain(form.id);
    expect(named(await listV2(sys.org), 'Default').form_ids).toContain(form.id);

    const onV1 = await sys.api.put(v1Groups(sys.org, `/${group.id}`), { token: sys.org.token, json: { group: { name: 'Renamed on v1' } } });
    expect(onV1.status).toBe(200);
    expect(named(await listV2(sys.org), 'Renamed on v1')).toEqual({ id: group.id, name: 'Renamed on v1', form_ids: [], device_ids: [device.id], tags: [] });
  });

  it('deletes on v2 (200, empty) what v1 then no longer lists; a group deleted on v1 is gone from v2', async () => {
    const [first, second] = (await sys.api.post(v2Groups(sys.org), { token: sys.org.token, json: ['Doomed on v2', 'Doomed on v1'] })).json().groups;
    const res = await sys.api.delete(v2Groups(sys.org, `/${first.id}`), { token: sys.org.token });
    expect(res.status).toBe(200);
    expect(res.text).toBe('');
    expect(named(await listV1(sys.org), 'Doomed on v2')).toBeUndefined();

    expect((await sys.api.delete(v1Groups(sys.org, `/${second.id}`), { token: sys.org.token })).status).toBe(200);
    expect(named(await listV2(sys.org), 'Doomed on v1')).toBeUndefined();
    expectJsonNotFound(await sys.api.delete(v2Groups(sys.org, `/${second.id}.json`), { token: sys.org.token }));
  });

  it('answers errors as the first generation does: 400 in plain text, 404 in the path\'s format, 401 with a challenge', async () => {
    const [group] = (await sys.api.post(v2Groups(sys.org), { token: sys.org.token, json: ['Kept as is'] })).json().groups;
    expectPlainBadRequest(await sys.api.post(v2Groups(sys.org), { token: sys.org.token, json: { names: ['not an array'] } }));
    expectPlainBadRequest(await sys.api.put(v2Groups(sys.org, `/${group.id}`), { token: sys.org.token, json: { group: { form_ids: [999999] } } }));
    expectPlainBadRequest(await sys.api.put(v2Groups(sys.org, `/${group.id}`), { token: sys.org.token, json: { group: { name: 42 } } }));
    expect(named(await listV1(sys.org), 'Kept as is')).toEqual(group);

    expectJsonNotFound(await sys.api.put(v2Groups(sys.org, '/999999.json'), { token: sys.org.token, json: { group: { name: 'x' } } }));
    expectXmlNotFound(await sys.api.delete(v2Groups(sys.org, '/999999.xml'), { token: sys.org.token }));
    expectJsonNotFound(await sys.api.delete(v2Groups(sys.org, '/not-an-id.json'), { token: sys.org.token }));
    expectJsonNotFound(await sys.api.get(v2List(sys.org, '.csv'), { token: sys.org.token }));
    // The documented paths, and pydevice's: the list is on v2 only; the writes on both (issue 22, test/groups-v2-writes.test.ts).
    expect((await sys.api.get(v2Groups(sys.org, '.json'), { token: sys.org.token })).status).toBe(404);

    for (const res of [
      await sys.api.get(v2List(sys.org, '.json')),
      await sys.api.post(v2Groups(sys.org), { json: ['No token'] }),
      await sys.api.put(v2Groups(sys.org, `/${group.id}`), { json: { group: { name: 'No token' } } }),
      await sys.api.delete(v2Groups(sys.org, `/${group.id}`)),
    ]) {
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toMatch(/^Basic realm="/);
    }
    expect(named(await listV1(sys.org), 'Kept as is')).toEqual(group);
  });

  it('keeps organizations apart on every v2 path: another organization\'s path or group id is 404 and changes nothing', async () => {
    const [own, other] = sys.orgs;
    const [theirs] = (await sys.api.post(v2Groups(other), { token: other.token, json: ['Theirs'] })).json().groups;
    const before = await listV1(other);

    expectJsonNotFound(await sys.api.get(v2List(other, '.json'), { token: own.token }));
    expectXmlNotFound(await sys.api.get(v2List(other, '.xml'), { token: own.token }));
    expectJsonNotFound(await sys.api.post(v2Groups(other, '.json'), { token: own.token, json: ['Planted'] }));
    expectJsonNotFound(await sys.api.put(v2Groups(other, `/${theirs.id}.json`), { token: own.token, json: { group: { name: 'Taken' } } }));
    expectJsonNotFound(await sys.api.delete(v2Groups(other, `/${theirs.id}.json`), { token: own.token }));
    // Their group's id under one's own organization: as unknown.
    expectJsonNotFound(await sys.api.put(v2Groups(own, `/${theirs.id}.json`), { token: own.token, json: { group: { name: 'Taken' } } }));
    expectJsonNotFound(await sys.api.delete(v2Groups(own, `/${theirs.id}.json`), { token: own.token }));

    expect(await listV1(other)).toEqual(before);
    expect((await listV2(own)).map((g: { id: number }) => g.id)).not.toContain(theirs.id);
  });

  it('answers 404 before refusing the body for an unknown or another organization\'s group id, as the first generation', async () => {
    const [own, other] = sys.orgs;
    const [theirs] = (await sys.api.post(v2Groups(other), { token: other.token, json: ['Theirs, body checked'] })).json().groups;
    const [mine] = (await sys.api.post(v2Groups(own), { token: own.token, json: ['Mine, body checked'] })).json().groups;
    for (const groupId of [999999, theirs.id]) {
      expectJsonNotFound(await sys.api.put(v2Groups(own, `/${groupId}.json`), { token: own.token, body: '{"group":', contentType: 'application/json' }));
      expectJsonNotFound(await sys.api.put(v2Groups(other, `/${theirs.id}.json`), { token: own.token, body: '{"group":', contentType: 'application/json' }));
    }
    // The group exists: the body's refusal.
    expectPlainBadRequest(await sys.api.put(v2Groups(own, `/${mine.id}.json`), { token: own.token, body: '{"group":', contentType: 'application/json' }));
  });
});

describe.each(systemModes)('Resources v3 (%s)', (mode) => {
  const sys = useSystem(mode, { organizations: 2 });
  const spreadsheet = readFileSync(realSpreadsheetPath);
  const text = (content: string) => fileJson('notes.txt', Buffer.from(content), mime.text);

  const createV1 = async (o: TestOrganization, description: string, file: unknown) => {
    const res = await sys.api.post('/api/resources.json', { token: o.token, json: { resource: { description, file } } });
    expect(res.status).toBe(201);
    return res.json().resource;
  };
  const createV3 = (o: TestOrganization, description: string, file: unknown, headers?: Record<string, string>) =>
    sys.api.post('/api/v3/resources.json', { token: o.token, json: { resource: { description, file } }, headers });
  const listV1 = async (o: TestOrganization) => (await sys.api.get('/api/resources.json', { token: o.token })).json().resources;
  const describeV1 = async (o: TestOrganization, id: number) => (await sys.api.get(`/api/resources/${id}/describe.json`, { token: o.token })).json();
  const describedOn = (o: TestOrganization, description: string) =>
    listV1(o).then((all: Array<{ id: number; description: string }>) => all.filter((r) => r.description === description));
  /** The one resource listed with this description. */
  const listedOnce = async (o: TestOrganization, description: string) => {
    const found = await describedOn(o, description);
    expect(found).toHaveLength(1);
    return found[0]!;
  };
  const download = async (o: TestOrganization, id: number) => {
    const res = await fetch(`${sys.api.baseUrl}/api/resources/${id}`, {
      headers: { authorization: `Basic ${Buffer.from(`${o.token}:x`).toString('base64')}` },
    });
    return { status: res.status, bytes: Buffer.from(await res.arrayBuffer()) };
  };

  it('lists on v3 the records v1 lists, with the documented keys, in JSON and in XML', async () => {
    const fresh = await createOrganization(sys.api, sys.adminToken);
    expect((await sys.api.get('/api/v3/resources.json', { token: fresh.token })).json()).toEqual({ resources: [] });
    expect(parseXml(await sys.api.get('/api/v3/resources.xml', { token: fresh.token })).resources).toEqual({ '@_type': 'array' });

    await createV1(fresh, 'Options & prices', fileJson('test_resource.xlsx', spreadsheet, mime.xlsx));
    await createV1(fresh, '', text('plain'));
    const json = await sys.api.get('/api/v3/resources.json', { token: fresh.token });
    expect(json.status).toBe(200);
    const { resources } = json.json();
    expect(Object.keys(json.json())).toEqual(['resources']);
    for (const item of resources) expect(Object.keys(item)).toEqual(['id', 'original_filename', 'version', 'description']);
    expect(resources).toEqual(await listV1(fresh));
    expect(resources.map((r: { original_filename: string }) => r.original_filename).sort()).toEqual(['notes.txt', 'test_resource.xlsx']);

    const xml = parseXml(await sys.api.get('/api/v3/resources.xml', { token: fresh.token }));
    expect(xml.resources['@_type']).toBe('array');
    expect(xml.resources.resource).toEqual(
      resources.map((r: { id: number; original_filename: string; version: number; description: string }) => ({
        id: { '#text': String(r.id), '@_type': 'integer' },
        original_filename: r.original_filename,
        version: { '#text': String(r.version), '@_type': 'integer' },
        description: r.description,
      })),
    );
    // No suffix: JSON, as the first generation; Accept may ask for XML.
    expect((await sys.api.get('/api/v3/resources', { token: fresh.token })).json()).toEqual({ resources });
    const accepted = await sys.api.get('/api/v3/resources', { token: fresh.token, headers: { accept: 'application/xml' } });
    expect(parseXml(accepted).resources.resource).toHaveLength(2);
  });

  it('creates on v3 (202, empty body) a resource v1 downloads with the same bytes, described on v3 as Ready with its summary', async () => {
    const created = await createV3(sys.org, 'Created on v3', fileJson('test_resource.xlsx', spreadsheet, mime.xlsx));
    expect(created.status).toBe(202);
    expect(created.text).toBe('');
    const listed = await listedOnce(sys.org, 'Created on v3');
    expect(listed).toEqual({ id: expect.any(Number), original_filename: 'test_resource.xlsx', version: 0, description: 'Created on v3' });

    const file = await download(sys.org, listed.id);
    expect(file.status).toBe(200);
    expect(file.bytes.equals(spreadsheet)).toBe(true);

    const described = await sys.api.get(`/api/v3/resources/${listed.id}/describe.json`, { token: sys.org.token });
    expect(described.status).toBe(200);
    const { resource } = described.json();
    expect(Object.keys(described.json())).toEqual(['resource']);
    expect(Object.keys(resource)).toEqual(['id', 'identifier', 'original_filename', 'version', 'description', 'generated_content_summary', 'status']);
    expect(resource).toEqual({
      id: listed.id,
      identifier: expect.stringMatching(uuid),
      original_filename: 'test_resource.xlsx',
      version: 0,
      description: 'Created on v3',
      generated_content_summary: [
        {
          table_name: 'test_resource.Sheet1',
          original_sheet_name: 'Sheet1',
          table_id: expect.stringMatching(uuid),
          columns: [{ column_name: 'test_options', column_number: 1, column_id: expect.stringMatching(uuid) }],
        },
      ],
      status: 'Ready',
    });
    // The first generation's detail, plus the status.
    const { status, ...detail } = resource;
    expect(status).toBe('Ready');
    expect(await describeV1(sys.org, listed.id)).toEqual({ resource: detail });

    const xml = parseXml(await sys.api.get(`/api/v3/resources/${listed.id}/describe.xml`, { token: sys.org.token })).resource;
    const [table] = resource.generated_content_summary;
    expect(xml).toEqual({
      id: { '#text': String(listed.id), '@_type': 'integer' },
      identifier: resource.identifier,
      original_filename: 'test_resource.xlsx',
      version: { '#text': '0', '@_type': 'integer' },
      description: 'Created on v3',
      status: 'Ready',
      generated_content_summary: {
        tables: {
          '@_type': 'array',
          table: [
            {
              table_name: 'test_resource.Sheet1',
              original_sheet_name: 'Sheet1',
              table_id: table.table_id,
              columns: {
                '@_type': 'array',
                column: [{ column_name: 'test_options', column_number: { '#text': '1', '@_type': 'integer' }, column_id: table.columns[0].column_id }],
              },
            },
          ],
        },
      },
    });
  });

  it('describes a file without a summary on v3 with an empty <tables>', async () => {
    const created = await createV3(sys.org, 'Plain text on v3', text('hello'));
    expect(created.status).toBe(202);
    const listed = await listedOnce(sys.org, 'Plain text on v3');
    const json = (await sys.api.get(`/api/v3/resources/${listed.id}/describe`, { token: sys.org.token })).json();
    expect(json.resource).toMatchObject({ generated_content_summary: [], status: 'Ready' });
    const xml = parseXml(await sys.api.get(`/api/v3/resources/${listed.id}/describe.xml`, { token: sys.org.token })).resource;
    expect(xml.generated_content_summary).toEqual({ tables: { '@_type': 'array' } });
    expect((await download(sys.org, listed.id)).bytes.toString()).toBe('hello');
  });

  it('updates on v3 (202, empty body) what v1 describes and downloads, and v1 updates show on v3', async () => {
    const created = await createV1(sys.org, 'Prices', fileJson('test_resource.xlsx', spreadsheet, mime.xlsx));

    const described = await sys.api.put(`/api/v3/resources/${created.id}.json`, { token: sys.org.token, json: { resource: { description: 'Prices on v3' } } });
    expect(described.status).toBe(202);
    expect(described.text).toBe('');
    expect(await describeV1(sys.org, created.id)).toEqual({ resource: { ...created, description: 'Prices on v3' } });

    const workbook = await xlsxWorkbook([{ name: 'Prices', rows: [['sku', 'price']] }]);
    const replaced = await sys.api.put(`/api/v3/resources/${created.id}`, {
      token: sys.org.token,
      json: { resource: { file: fileJson('prices.xlsx', workbook, mime.xlsx) } },
    });
    expect(replaced.status).toBe(202);
    expect(replaced.text).toBe('');
    const { resource: after } = await describeV1(sys.org, created.id);
    expect(after).toMatchObject({ id: created.id, version: 1, original_filename: 'prices.xlsx', description: 'Prices on v3' });
    expect(after.generated_content_summary.map((t: { table_name: string }) => t.table_name)).toEqual(['prices.Prices']);
    expect((await download(sys.org, created.id)).bytes.equals(workbook)).toBe(true);

    const onV1 = await sys.api.put(`/api/resources/${created.id}.json`, { token: sys.org.token, json: { resource: { description: 'Back on v1' } } });
    expect(onV1.status).toBe(200);
    const onV3 = (await sys.api.get(`/api/v3/resources/${created.id}/describe.json`, { token: sys.org.token })).json();
    expect(onV3).toEqual({ resource: { ...after, description: 'Back on v1', status: 'Ready' } });
  });

  it('deletes on the v3 path with 202 and on the v1 path with 200, each removing the one record', async () => {
    const onV3 = await createV1(sys.org, 'Deleted on v3', text('v3'));
    const onV1 = await createV1(sys.org, 'Deleted on v1', text('v1'));

    const v3 = await sys.api.delete(`/api/v3/resources/${onV3.id}`, { token: sys.org.token });
    expect(v3.status).toBe(202);
    expect(v3.text).toBe('');
    expect(await describedOn(sys.org, 'Deleted on v3')).toEqual([]);
    expect((await download(sys.org, onV3.id)).status).toBe(404);

    const v1 = await sys.api.delete(`/api/resources/${onV1.id}`, { token: sys.org.token });
    expect(v1.status).toBe(200);
    expectJsonNotFound(await sys.api.get(`/api/v3/resources/${onV1.id}/describe.json`, { token: sys.org.token }));
    // Gone is gone on either path.
    expectJsonNotFound(await sys.api.delete(`/api/v3/resources/${onV1.id}.json`, { token: sys.org.token }));
    expectJsonNotFound(await sys.api.delete(`/api/resources/${onV3.id}.json`, { token: sys.org.token }));
  });

  it('answers bad input by the conventions and changes nothing: 400 plain text, 404 in the path\'s format, 401 with a challenge', async () => {
    const kept = await createV1(sys.org, 'Kept on v3 errors', text('kept'));
    const count = (await listV1(sys.org)).length;

    expectPlainBadRequest(await sys.api.post('/api/v3/resources.json', { token: sys.org.token, json: { resource: { description: 'No file' } } }));
    expectPlainBadRequest(await createV3(sys.org, 'Bad Base64', { file_name: 'x.txt', file_data: '!!!', content_type: mime.text }));
    expectPlainBadRequest(await sys.api.put(`/api/v3/resources/${kept.id}.json`, { token: sys.org.token, json: { resource: {} } }));
    expectPlainBadRequest(await sys.api.put(`/api/v3/resources/${kept.id}.json`, { token: sys.org.token, json: { resource: { description: 7 } } }));
    const wrongType = await createV3(sys.org, 'Zip', fileJson('a.zip', Buffer.from('PK'), 'application/zip'));
    expect(wrongType.status).toBe(415);
    expect(wrongType.json().message).toMatch(/content_type/);
    const notWhatItSays = await createV3(sys.org, 'Fake PNG', fileJson('a.png', Buffer.from('not a png'), mime.png));
    expect(notWhatItSays.status).toBe(422);

    expect((await listV1(sys.org)).length).toBe(count);
    expect(await describeV1(sys.org, kept.id)).toEqual({ resource: kept });

    expectJsonNotFound(await sys.api.get('/api/v3/resources/999999/describe.json', { token: sys.org.token }));
    expectXmlNotFound(await sys.api.get('/api/v3/resources/999999/describe.xml', { token: sys.org.token }));
    expectJsonNotFound(await sys.api.put('/api/v3/resources/999999.json', { token: sys.org.token, json: { resource: { description: 'x' } } }));
    expectJsonNotFound(await sys.api.delete('/api/v3/resources/999999.json', { token: sys.org.token }));
    expectJsonNotFound(await sys.api.get('/api/v3/resources/abc/describe.json', { token: sys.org.token }));
    expectJsonNotFound(await sys.api.get(`/api/v3/resources/${kept.id}/describe.pdf`, { token: sys.org.token }));
    expectJsonNotFound(await sys.api.get('/api/v3/resources.csv', { token: sys.org.token }));
    // Download stays on the first generation's path.
    expect((await sys.api.get(`/api/v3/resources/${kept.id}`, { token: sys.org.token })).status).toBe(404);

    for (const res of [
      await sys.api.get('/api/v3/resources.json'),
      await sys.api.get(`/api/v3/resources/${kept.id}/describe.xml`),
      await sys.api.post('/api/v3/resources.json', { json: { resource: { description: 'No token', file: text('x') } } }),
      await sys.api.put(`/api/v3/resources/${kept.id}.json`, { json: { resource: { description: 'No token' } } }),
      await sys.api.delete(`/api/v3/resources/${kept.id}`),
    ]) {
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toMatch(/^Basic realm="/);
    }
    expect(await describeV1(sys.org, kept.id)).toEqual({ resource: kept });
    expect((await listV1(sys.org)).length).toBe(count);
  });

  it('keeps organizations apart on every v3 path: another organization\'s resource is 404 and unchanged', async () => {
    const [own, other] = sys.orgs;
    const theirs = await createV1(other, 'Theirs on v3', text('their bytes'));

    expectJsonNotFound(await sys.api.get(`/api/v3/resources/${theirs.id}/describe.json`, { token: own.token }));
    expectXmlNotFound(await sys.api.get(`/api/v3/resources/${theirs.id}/describe.xml`, { token: own.token }));
    expectJsonNotFound(await sys.api.put(`/api/v3/resources/${theirs.id}.json`, { token: own.token, json: { resource: { description: 'Taken' } } }));
    expectJsonNotFound(
      await sys.api.put(`/api/v3/resources/${theirs.id}.json`, { token: own.token, json: { resource: { file: text('replaced') } } }),
    );
    expectJsonNotFound(await sys.api.delete(`/api/v3/resources/${theirs.id}.json`, { token: own.token }));
    expect((await sys.api.get('/api/v3/resources.json', { token: own.token })).json().resources.map((r: { id: number }) => r.id)).not.toContain(theirs.id);
    expect(parseXml(await sys.api.get('/api/v3/resources.xml', { token: own.token })).resources.resource ?? []).not.toContainEqual(
      expect.objectContaining({ id: { '#text': String(theirs.id), '@_type': 'integer' } }),
    );

    expect(await describeV1(other, theirs.id)).toEqual({ resource: theirs });
    expect((await download(other, theirs.id)).bytes.toString()).toBe('their bytes');
  });

  it('answers 404 before refusing the body for an unknown or another organization\'s resource id, as the first generation', async () => {
    const [own, other] = sys.orgs;
    const theirs = await createV1(other, 'Theirs, body checked', text('theirs'));
    const mine = await createV1(own, 'Mine, body checked', text('mine'));
    for (const id of [999999, theirs.id]) {
      expectJsonNotFound(await sys.api.put(`/api/v3/resources/${id}.json`, { token: own.token, body: '{"resource":', contentType: 'application/json' }));
    }
    expectPlainBadRequest(await sys.api.put(`/api/v3/resources/${mine.id}.json`, { token: own.token, body: '{"resource":', contentType: 'application/json' }));
    expect(await describeV1(other, theirs.id)).toEqual({ resource: theirs });
  });

  it('creates one resource for a v3 create replayed with the same Idempotency-Key', async () => {
    const key = `v3-resource-${mode}-${Date.now()}`;
    const body = text('once');
    const first = await createV3(sys.org, 'Idempotent on v3', body, { 'idempotency-key': key });
    const replay = await createV3(sys.org, 'Idempotent on v3', body, { 'idempotency-key': key });
    expect(first.status).toBe(202);
    expect(replay.status).toBe(202);
    expect(replay.text).toBe('');
    expect(await describedOn(sys.org, 'Idempotent on v3')).toHaveLength(1);

    // Another body under the same key is another request: refused, nothing created.
    const other = await createV3(sys.org, 'Idempotent on v3, changed', body, { 'idempotency-key': key });
    expect(other.status).toBe(422);
    expect(await describedOn(sys.org, 'Idempotent on v3, changed')).toEqual([]);
    // Without a key, each create is its own.
    await createV3(sys.org, 'Twice without a key', body);
    await createV3(sys.org, 'Twice without a key', body);
    expect(await describedOn(sys.org, 'Twice without a key')).toHaveLength(2);
  });
});
