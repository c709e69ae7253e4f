import { createForm, createOrganization, enrollDevice, type TestOrganization } from './support/fixtures';
import { systemModes } from './support/start-system';
import { useSystem } from './support/use-system';

describe.each(systemModes)('Groups API (%s)', (mode) => {
  const sys = useSystem(mode, { organizations: 2 });

  const groupsPath = (o: TestOrganization, suffix = '') => `/organizations/${o.orgId}/groups${suffix}`;
  const listGroups = async (o: TestOrganization) => (await sys.api.get(groupsPath(o, '.json'), { token: o.token })).json().groups;
  const groupNamed = async (o: TestOrganization, name: string) =>
    (await listGroups(o)).find((g: { name: string }) => g.name === name);

  it('starts every organization with an empty Default group, in XML and JSON', async () => {
    const fresh = await createOrganization(sys.api, sys.adminToken);
    const xml = await sys.api.get(groupsPath(fresh, '.xml'), { token: fresh.token });
    expect(xml.status).toBe(200);
    expect(xml.headers.get('content-type')).toMatch(/application\/xml/);
    expect(xml.text).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>\n<groups type="array">\n  <group>\n/);
    expect(xml.text).toContain('<name>Default</name>');
    expect(xml.text).toContain('<form_ids type="array"/>');
    expect(xml.text).toContain('<device_ids type="array"/>');

    const json = await sys.api.get(groupsPath(fresh, '.json'), { token: fresh.token });
    expect(json.status).toBe(200);
    expect(json.json()).toEqual({ groups: [{ id: expect.any(Number), name: 'Default', form_ids: [], device_ids: [], tags: [] }] });
  });

  it('creates groups from a JSON array of names (201) and answers 304 when they all exist', async () => {
    const created = await sys.api.post(groupsPath(sys.org), { token: sys.org.token, json: ['North team', 'South team'] });
    expect(created.status).toBe(201);
    expect(created.json().groups.map((g: { name: string }) => g.name)).toEqual(['North team', 'South team']);

    const again = await sys.api.post(groupsPath(sys.org), { token: sys.org.token, json: ['North team'] });
    expect(again.status).toBe(304);
    const names = (await listGroups(sys.org)).map((g: { name: string }) => g.name);
    expect(names.filter((n: string) => n === 'North team')).toHaveLength(1);
  });

  it('creates groups from XML', async () => {
    const res = await sys.api.post(groupsPath(sys.org), {
      token: sys.org.token,
      xml: '<groups><group><name>East &amp; West</name></group><group><name>Depot</name></group></groups>',
    });
    expect(res.status).toBe(201);
    expect(res.text).toContain('<name>East &amp; West</name>');
    expect(await groupNamed(sys.org, 'East & West')).toBeDefined();
    expect(await groupNamed(sys.org, 'Depot')).toBeDefined();
  });

  it('refuses a bad create body with 400 naming the entry of the body the user sent, creating none of its groups', async () => {
    const refusals: Array<[object | string, string]> = [
      [['Fine', ''], 'group names[1]: Too small'],
      [['Fine', '   '], 'group names[1]: Too small'],
      [['Fine', 'x'.repeat(256)], 'group names[1]: Too big'],
      [['Fine', 7], 'group names[1]: must be a string'],
      [['Fine', 'bell\u0007'], 'group names[1]: contains a character XML cannot carry (U+0007)'],
      [[], 'group names: Too small'],
      [{ names: ['Fine'] }, 'Expected a JSON array of group names'],
      ['<groups><group><name>Fine</name></group><group><name> </name></group></groups>', 'groups.group[1].name: Too small'],
      ['<groups><group><name>Fine</name></group><group><title>x</title></group></groups>', 'groups.group[1]: must contain a <name>'],
      ['<groups/>', 'groups: Too small'],
    ];
    for (const [body, message] of refusals) {
      const res = await sys.api.post(groupsPath(sys.org), { token: sys.org.token, ...(typeof body === 'string' ? { xml: body } : { json: body }) });
      expect([res.status, res.text]).toEqual([400, expect.stringContaining(`\nmessage: ${message}`)]);
    }
    expect(await groupNamed(sys.org, 'Fine')).toBeUndefined();
  });

  it('moves forms between groups on update and leaves omitted attributes alone', async () => {
    const form = await createForm(sys.api, sys.org, 'Move me');
    const device = await enrollDevice(sys.api, sys.org);
    const [target] = (await sys.api.post(groupsPath(sys.org), { token: sys.org.token, json: ['Movers'] })).json().groups;
    const withDevice = await sys.api.put(groupsPath(sys.org, `/${target.id}`), {
      token: sys.org.token,
      json: { group: { device_ids: [device.id] } },
    });
    expect(withDevice.status).toBe(200);
    expect(withDevice.json().group).toEqual({ id: target.id, name: 'Movers', form_ids: [], device_ids: [device.id], tags: [] });

    const moved = await sys.api.put(groupsPath(sys.org, `/${target.id}.json`), {
      token: sys.org.token,
      json: { group: { name: 'Movers and shakers', form_ids: [form.id] } },
    });
    expect(moved.status).toBe(200);
    expect(moved.json().group).toEqual({ id: target.id, name: 'Movers and shakers', form_ids: [form.id], device_ids: [device.id], tags: [] });
    expect((await groupNamed(sys.org, 'Default')).form_ids).not.toContain(form.id);

    // Removed from its group, a form goes back to Default.
    const emptied = await sys.api.put(groupsPath(sys.org, `/${target.id}`), {
      token: sys.org.token,
      xml: '<group><form_ids/></group>',
    });
    expect(emptied.status).toBe(200);
    expect(emptied.text).toContain('<form_ids type="array"/>');
    expect(emptied.text).toContain(`<device_id type="integer">${device.id}</device_id>`);
    expect((await groupNamed(sys.org, 'Default')).form_ids).toContain(form.id);
  });

  it('updates from XML with form_id items', async () => {
    const form = await createForm(sys.api, sys.org, 'XML moved');
    const [target] = (await sys.api.post(groupsPath(sys.org), { token: sys.org.token, json: ['XML target'] })).json().groups;
    const res = await sys.api.put(groupsPath(sys.org, `/${target.id}.xml`), {
      token: sys.org.token,
      xml: `<group><name>XML target 2</name><form_ids><form_id>${form.id}</form_id></form_ids></group>`,
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/application\/xml/);
    expect(res.text).toContain('<name>XML target 2</name>');
    expect(res.text).toContain(`<form_id type="integer">${form.id}</form_id>`);
  });

  it('refuses unknown and foreign form or device ids with 400 and a message, changing nothing', async () => {
    const foreignForm = await createForm(sys.api, sys.orgs[1], 'Not yours');
    const [target] = (await sys.api.post(groupsPath(sys.org), { token: sys.org.token, json: ['Guarded'] })).json().groups;
    for (const body of [
      { group: { form_ids: [999999] } },
      { group: { form_ids: [foreignForm.id] } },
      { group: { device_ids: [999999], name: 'Renamed' } },
    ]) {
      const res = await sys.api.put(groupsPath(sys.org, `/${target.id}`), { token: sys.org.token, json: body });
      expect(res.status).toBe(400);
      expect(res.headers.get('content-type')).toMatch(/text\/plain/);
      expect(res.text).toMatch(/^response_type: ERROR\nresponse_code: bad_request\nmessage: .*does not exist/);
    }
    expect(await groupNamed(sys.org, 'Guarded')).toEqual({ id: target.id, name: 'Guarded', form_ids: [], device_ids: [], tags: [] });
    expect((await groupNamed(sys.orgs[1], 'Default')).form_ids).toContain(foreignForm.id);
  });

  it('deletes a group (200), sending its forms back to Default; unknown ids are 404', async () => {
    const form = await createForm(sys.api, sys.org, 'Orphan');
    const [doomed] = (await sys.api.post(groupsPath(sys.org), { token: sys.org.token, json: ['Doomed'] })).json().groups;
    await sys.api.put(groupsPath(sys.org, `/${doomed.id}`), { token: sys.org.token, json: { group: { form_ids: [form.id] } } });

    const res = await sys.api.delete(groupsPath(sys.org, `/${doomed.id}`), { token: sys.org.token });
    expect(res.status).toBe(200);
    expect(res.text).toBe('');
    expect(await groupNamed(sys.org, 'Doomed')).toBeUndefined();
    expect((await groupNamed(sys.org, 'Default')).form_ids).toContain(form.id);

    expect((await sys.api.delete(groupsPath(sys.org, `/${doomed.id}`), { token: sys.org.token })).status).toBe(404);
    const json404 = await sys.api.delete(groupsPath(sys.org, '/424242.json'), { token: sys.org.token });
    expect(json404.status).toBe(404);
    expect(json404.json()).toMatchObject({ status: '404', error: 'Not Found' });
  });

  it('never deletes the Default group', async () => {
    const defaultGroup = await groupNamed(sys.org, 'Default');
    const res = await sys.api.delete(groupsPath(sys.org, `/${defaultGroup.id}`), { token: sys.org.token });
    expect(res.status).toBe(400);
    expect(res.text).toMatch(/Default group/);
    expect(await groupNamed(sys.org, 'Default')).toBeDefined();
  });

  it("answers 404 for another organization's groups, whatever the token", async () => {
    const theirDefault = await groupNamed(sys.orgs[1], 'Default');
    expect((await sys.api.get(groupsPath(sys.orgs[1], '.json'), { token: sys.org.token })).status).toBe(404);
    expect((await sys.api.delete(groupsPath(sys.orgs[1], `/${theirDefault.id}`), { token: sys.org.token })).status).toBe(404);
    const viaOwnPath = await sys.api.put(groupsPath(sys.org, `/${theirDefault.id}`), { token: sys.org.token, json: { group: { name: 'Mine' } } });
    expect(viaOwnPath.status).toBe(404);
    expect((await groupNamed(sys.orgs[1], 'Default')).name).toBe('Default');
  });
  it('takes a group\'s tags in JSON and XML (group.md), keeps them when left out, and refuses bad ones with 400 changing nothing', async () => {
    await sys.api.post(groupsPath(sys.org, '.json'), { token: sys.org.token, json: ['Tagged'] });
    const target = await groupNamed(sys.org, 'Tagged');
    const json = await sys.api.put(groupsPath(sys.org, `/${target.id}.json`), { token: sys.org.token, json: { group: { tags: ['food', 'health', 'food'] } } });
    expect([json.status, json.json().group.tags]).toEqual([200, ['food', 'health']]);
    const renamed = await sys.api.put(groupsPath(sys.org, `/${target.id}.json`), { token: sys.org.token, json: { group: { name: 'Tagged 2' } } });
    expect(renamed.json().group.tags).toEqual(['food', 'health']);
    const xml = await sys.api.put(groupsPath(sys.org, `/${target.id}.xml`), { token: sys.org.token, xml: '<group><tags><name>travel</name></tags></group>' });
    expect(xml.status).toBe(200);
    expect(xml.text).toContain('<tags type="array">\n    <name>travel</name>\n  </tags>');
    const before = await groupNamed(sys.org, 'Tagged 2');
    for (const body of [{ json: { group: { tags: 'food' } } }, { json: { group: { tags: [''] } } }, { json: { group: { tags: [7] } } }, { xml: '<group><tags><tag>x</tag></tags></group>' }, { json: { group: { name: 'Tagged 3', tags: Array.from({ length: 101 }, (_, i) => `t${i}`) } } }]) {
      const refused = await sys.api.put(groupsPath(sys.org, `/${target.id}`), { token: sys.org.token, ...body });
      expect([JSON.stringify(body).slice(0, 60), refused.status]).toEqual([JSON.stringify(body).slice(0, 60), 400]);
    }
    expect(await groupNamed(sys.org, 'Tagged 2')).toEqual(before);
    // Another organization's group: 404, its tags untouched.
    const theirs = (await sys.api.post(groupsPath(sys.orgs[1], '.json'), { token: sys.orgs[1].token, json: ['Theirs tagged'] })).json().groups[0];
    expect((await sys.api.put(groupsPath(sys.org, `/${theirs.id}.json`), { token: sys.org.token, json: { group: { tags: ['mine'] } } })).status).toBe(404);
    expect((await groupNamed(sys.orgs[1], 'Theirs tagged')).tags).toEqual([]);
  });
});
