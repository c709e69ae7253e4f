import { docJson, shapeMismatches, xmlShapeMismatches } from '../../support/doc-shape';
import { createForm, enrollDevice } from '../../support/fixtures';
import type { SystemUnderTest } from '../../support/use-system';

/**
 * The groups docs' examples (doc/api/group.md, v2/group.md, v2/groups-json.md,
 * v2/groups-xml.md; every stored version of each shows these, verbatim), and what the suites
 * built from them share.
 */

export const listExampleQuery = '?filter=Def&tags[]=health&tags[]=food&page=1';

export const listJsonExample = String.raw`{
  "groups": [
    {
      "id": 3,
      "name": "Default",
      "device_ids": [
        4,
        7
      ],
      "form_ids": [
        9,
        13
      ],
      "tags": [
        "food",
        "health"
      ]
    },
    {
      "id": 4,
      "name": "Unpublished",
      "device_ids": [],
      "form_ids": [],
      "tags": [
        "food"
      ]
    }
  ]
}`;

export const listXmlExample = String.raw`<groups type="array">
  <group>
    <id>3</id>
    <name>Default</name>
    <device_ids type="array">
      <device_id>8</device_id>
    </device_ids>
    <form_ids type="array">
      <form_id>8</form_id>
      <form_id>10</form_id>
    </form_ids>
    <tags type="array">
      <name>food</name>
      <name>health</name>
    </tags>
  </group>
  <group>
    <id>4</id>
    <name>Unpublished</name>
    <device_ids type="array">
      <form_id>5</form_id>
    </device_ids>
    <form_ids type="array">
    </form_ids>
    <tags type="array">
      <name>food</name>
    </tags>
  </group>
</groups>`;

/**
 * What the list example shows, made in the suite's organization: Default with a form, a
 * device and the tags food and health; Unpublished with the tag food only; Elsewhere, with the
 * tag travel. Answers the ids.
 */
export async function makeListExample(sys: SystemUnderTest): Promise<{ defaultId: number; unpublishedId: number; elsewhereId: number }> {
  const { orgId, token } = sys.org;
  await createForm(sys.api, sys.org, 'In Default');
  const device = await enrollDevice(sys.api, sys.org);
  const created = await sys.api.post(`/organizations/${orgId}/groups.json`, { token, json: ['Unpublished', 'Elsewhere'] });
  if (created.status !== 201) throw new Error(`creating groups answered ${created.status}: ${created.text}`);
  const listed = (await sys.api.get(`/organizations/${orgId}/groups.json`, { token })).json().groups as { id: number; name: string; device_ids: number[] }[];
  const idOf = (name: string) => listed.find((group) => group.name === name)!.id;
  const tag = async (groupId: number, group: object) => {
    const res = await sys.api.put(`/organizations/${orgId}/groups/${groupId}.json`, { token, json: { group } });
    if (res.status !== 200) throw new Error(`tagging group ${groupId} answered ${res.status}: ${res.text}`);
  };
  const defaultGroup = listed.find((group) => group.name === 'Default')!;
  await tag(defaultGroup.id, { tags: ['food', 'health'], device_ids: [...new Set([...defaultGroup.device_ids, device.id])] });
  await tag(idOf('Unpublished'), { tags: ['food'] });
  await tag(idOf('Elsewhere'), { tags: ['travel'] });
  return { defaultId: defaultGroup.id, unpublishedId: idOf('Unpublished'), elsewhereId: idOf('Elsewhere') };
}

type Group = { id: number; name: string; tags: string[] };

/** The documented list request, JSON: the example's shape, only the groups it asks for (name holds "Def", a tag health or food). */
export async function expectDocumentedJsonList(sys: SystemUnderTest, path: string): Promise<void> {
  const res = await sys.api.get(`${path}.json${listExampleQuery}`, { token: sys.org.token });
  expect(res.status).toBe(200);
  expect(shapeMismatches(res.json(), docJson(listJsonExample))).toEqual([]);
  expect(res.json().groups.map((group: Group) => [group.name, group.tags])).toEqual([['Default', ['food', 'health']]]);
}

/** The documented list request, XML: the example's shape (`<groups><group>…<tags><name>`). */
export async function expectDocumentedXmlList(sys: SystemUnderTest, path: string): Promise<void> {
  const res = await sys.api.get(`${path}.xml${listExampleQuery}`, { token: sys.org.token });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^application\/xml/);
  expect(xmlShapeMismatches(res.text, listXmlExample)).toEqual([]);
  expect(res.text).toContain('<name>Default</name>');
  expect(res.text).not.toContain('<name>Unpublished</name>');
}

/** Each query parameter as the docs describe it: filter (part of the name), tags (any of them), items and page. */
export async function expectDocumentedQuery(sys: SystemUnderTest, path: string): Promise<void> {
  const names = async (query: string) => {
    const res = await sys.api.get(`${path}.json${query}`, { token: sys.org.token });
    expect([query, res.status]).toEqual([query, 200]);
    return (res.json().groups as Group[]).map((group) => group.name);
  };
  expect(await names('?filter=Def')).toEqual(['Default']);
  // "tags[]=health and tags[]=food brings a group that only has the 'health' tag": any of them.
  expect(await names('?tags[]=health&tags[]=food')).toEqual(['Default', 'Unpublished']);
  expect(await names('?tags[]=health')).toEqual(['Default']);
  expect(await names('?tags=travel')).toEqual(['Elsewhere']);
  expect(await names('?tags[]=none')).toEqual([]);
  expect(await names('?items=1&page=2')).toEqual(['Unpublished']);
  expect(await names('?tags[]=food&items=1&page=2')).toEqual(['Unpublished']);
  expect((await names('')).length).toBe(3);
}
