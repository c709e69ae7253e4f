import { createForm, enrollDevice } from '../support/fixtures';
import { systemModes } from '../support/start-system';
import { useSystem } from '../support/use-system';
import { expectDocumentedJsonList, expectDocumentedQuery, expectDocumentedXmlList, makeListExample } from './support/group-docs-d';

/**
 * doc/api/group.md (devicemagic/forms_api_docs; the stored versions read show the same
 * examples), example by example, in every mode. Statuses where the doc and a stronger
 * source disagree (docs/architecture.md's order): create answers 201 (304 when every name
 * exists), as pydevice expects, not the doc's 202; update and delete answer 200, as
 * api-spec.md defines these paths (update's 200 is the doc's own sentence too).
 */

const createJson = String.raw`[ "A First Group", "A Second Group" ]`;

const createXml = String.raw`<groups>
    <group>
        <name>A First Group</name>
    </group>
    <group>
        <name>A Second Group</name>
    </group>
</groups>`;

const updateJson = String.raw`{
  "group": {
    "name": "An updated group name",
    "form_ids": [1,2],
    "device_ids": [4,5,12]
  }
}`;

const updateXml = String.raw`<group>
  <name>An updated group name</name>
  <form_ids>
    <form_id>1</form_id>
    <form_id>2</form_id>
  </form_ids>
  <device_ids>
    <device_id>4</device_id>
    <device_id>5</device_id>
    <device_id>12</device_id>
  </device_ids>
</group>`;

/** The example with its ids (data, not shape) replaced by the suite's own, in order. */
function withIds(example: string, formIds: number[], deviceIds: number[]): string {
  const ids = [...formIds, ...deviceIds];
  let next = 0;
  return example.replace(/\b(1|2|4|5|12)\b/g, () => String(ids[next++]));
}

describe.each(systemModes)('doc/api/group.md: every example (%s)', (mode) => {
  const sys = useSystem(mode, { organizations: 1 });
  const v2 = () => `/api/v2/organizations/${sys.org.orgId}/groups`;
  const v1 = (rest = '') => `/organizations/${sys.org.orgId}/groups${rest}`;
  const token = () => ({ token: sys.org.token });

  beforeAll(async () => {
    await makeListExample(sys);
  });

  it('GET the list with the documented query: the JSON and XML examples\' shapes, tags included', async () => {
    await expectDocumentedJsonList(sys, v2());
    await expectDocumentedXmlList(sys, v2());
  });

  it('filter, tags[], items and page as the query table describes them', async () => {
    await expectDocumentedQuery(sys, v2());
  });

  it('POST create, the JSON and XML example bodies: 201 with the groups (304 once every name exists)', async () => {
    const json = await sys.api.post(v1('.json'), { ...token(), body: createJson, contentType: 'application/json' });
    expect(json.status).toBe(201);
    expect(json.json().groups.map((g: { name: string }) => g.name)).toEqual(['A First Group', 'A Second Group']);
    expect((await sys.api.post(v1('.json'), { ...token(), body: createJson, contentType: 'application/json' })).status).toBe(304);
    for (const group of json.json().groups as { id: number }[]) expect((await sys.api.delete(v1(`/${group.id}`), token())).status).toBe(200);
    const xml = await sys.api.post(v1('.xml'), { ...token(), xml: createXml });
    expect(xml.status).toBe(201);
    expect(xml.text).toContain('<name>A Second Group</name>');
  });

  it('PUT update, the JSON and XML example bodies (with ids of this organization): 200; the example\'s own ids, unknown here, 400 changing nothing', async () => {
    const forms = [await createForm(sys.api, sys.org, 'One'), await createForm(sys.api, sys.org, 'Two')];
    const devices = [await enrollDevice(sys.api, sys.org), await enrollDevice(sys.api, sys.org), await enrollDevice(sys.api, sys.org)];
    const made = (await sys.api.post(v1('.json'), { ...token(), json: ['To update'] })).json().groups[0].id;
    const before = (await sys.api.get(`${v2()}.json`, token())).json();
    const verbatim = await sys.api.put(v1(`/${made}.json`), { ...token(), body: updateJson, contentType: 'application/json' });
    if (verbatim.status !== 200) {
      expect(verbatim.status).toBe(400);
      expect(verbatim.headers.get('message')).toMatch(/do(es)? not exist/);
      expect((await sys.api.get(`${v2()}.json`, token())).json()).toEqual(before);
    }
    const formIds = forms.map((f) => f.id);
    const deviceIds = devices.map((d) => d.id);
    const json = await sys.api.put(v1(`/${made}.json`), { ...token(), body: withIds(updateJson, formIds, deviceIds), contentType: 'application/json' });
    expect(json.status).toBe(200);
    expect(json.json().group).toMatchObject({ name: 'An updated group name', form_ids: formIds, device_ids: deviceIds });
    const xml = await sys.api.put(v1(`/${made}.xml`), { ...token(), xml: withIds(updateXml, formIds, deviceIds).replace('An updated group name', 'Updated by XML') });
    expect(xml.status).toBe(200);
    expect(xml.text).toContain('<name>Updated by XML</name>');
  });

  it('DELETE: 200, empty', async () => {
    const made = (await sys.api.post(v1('.json'), { ...token(), json: ['To delete'] })).json().groups[0].id;
    const deleted = await sys.api.delete(v1(`/${made}`), token());
    expect([deleted.status, deleted.text]).toEqual([200, '']);
  });
});
