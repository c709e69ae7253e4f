import { systemModes } from './support/start-system';
import { useSystem } from './support/use-system';

/**
 * Issue 22: pydevice 0.3.3 writes groups under /api/v2/organizations/<org>/groups with no
 * suffix. The same handlers as /api/organizations/<org>/groups: 201 with the new groups, 304
 * when every name exists (pydevice's 201/304 on the first generation's create, which wins
 * over group.md's 202: the client's own generation); another organization's ids are 404.
 */
describe.each(systemModes)('Groups v2 writes under /api/v2 (%s)', (mode) => {
  const sys = useSystem(mode, { organizations: 2 });
  const base = (org = sys.org) => `/api/v2/organizations/${org.orgId}/groups`;
  const names = async (org = sys.org) => (await sys.api.get(`${base(org)}.json`, { token: org.token })).json().groups.map((g: { name: string }) => g.name);

  it('creates (201, then 304), updates (200) and deletes (200, empty) without a suffix, one record with the other generations', async () => {
    const created = await sys.api.post(base(), { token: sys.org.token, json: ['North', 'South'] });
    expect(created.status).toBe(201);
    const [north] = created.json().groups as Array<{ id: number; name: string }>;
    expect(north).toMatchObject({ name: 'North' });
    const again = await sys.api.post(base(), { token: sys.org.token, json: ['North'] });
    expect([again.status, again.text]).toEqual([304, '']);
    const asXml = await sys.api.post(base(), { token: sys.org.token, xml: '<groups><group><name>East</name></group></groups>', headers: { accept: 'application/xml' } });
    expect(asXml.status).toBe(201);
    expect(asXml.text).toContain('<name>East</name>');

    const updated = await sys.api.put(`${base()}/${north!.id}`, { token: sys.org.token, json: { group: { name: 'North West' } } });
    expect(updated.status).toBe(200);
    expect(updated.json().group).toMatchObject({ id: north!.id, name: 'North West' });
    expect(await names()).toEqual(expect.arrayContaining(['North West', 'South', 'East']));
    // The first generation sees the same record.
    expect((await sys.api.get(`/organizations/${sys.org.orgId}/groups.json`, { token: sys.org.token })).text).toContain('North West');

    const deleted = await sys.api.delete(`${base()}/${north!.id}`, { token: sys.org.token });
    expect([deleted.status, deleted.text]).toEqual([200, '']);
    expect(await names()).not.toContain('North West');
    expect((await sys.api.delete(`${base()}/${north!.id}`, { token: sys.org.token })).status).toBe(404);
  });

  it('lists with filter (part of the name, any case), items and page, as group.md documents them', async () => {
    const org = sys.orgs[0];
    const listed = async (query: string) => (await sys.api.get(`${base(org)}.json?${query}`, { token: org.token })).json().groups.map((g: { name: string }) => g.name);
    await sys.api.post(base(org), { token: org.token, json: ['Filter Alpha', 'filter beta', 'Gamma'] });
    expect(await listed('filter=FILTER')).toEqual(['Filter Alpha', 'filter beta']);
    expect(await listed('filter=def')).toEqual(['Default']);
    const all = await listed('');
    expect(await listed('items=2')).toEqual(all.slice(0, 2));
    expect(await listed('items=2&page=2')).toEqual(all.slice(2, 4));
    expect(await listed('filter=filter&items=1&page=2')).toEqual(['filter beta']);
    const xml = await sys.api.get(`${base(org)}.xml?filter=gamma`, { token: org.token });
    expect(xml.text).toContain('<name>Gamma</name>');
    expect(xml.text).not.toContain('<name>Default</name>');
    for (const bad of ['items=0', 'page=x', 'filter=a&filter=b']) expect([bad, (await sys.api.get(`${base(org)}.json?${bad}`, { token: org.token })).status]).toEqual([bad, 400]);
  });

  it("another organization's groups and organization are 404, and unchanged", async () => {
    const [mine, theirs] = sys.orgs;
    const theirGroup = (await sys.api.post(base(theirs), { token: theirs.token, json: ['Theirs'] })).json().groups[0] as { id: number };
    const before = await names(theirs);
    for (const [method, path, json] of [
      ['POST', base(theirs), ['Mine']],
      ['PUT', `${base(theirs)}/${theirGroup.id}`, { group: { name: 'Mine' } }],
      ['PUT', `${base(mine)}/${theirGroup.id}`, { group: { name: 'Mine' } }],
      ['PUT', `${base(mine)}/${theirGroup.id}`, { group: { name: 7 } }],
      ['DELETE', `${base(theirs)}/${theirGroup.id}`, undefined],
      ['DELETE', `${base(mine)}/${theirGroup.id}`, undefined],
    ] as const) {
      const res = await sys.api.request(method, path, { token: mine.token, json });
      expect([method, path, res.status]).toEqual([method, path, 404]);
    }
    expect(await names(theirs)).toEqual(before);
  });
});
