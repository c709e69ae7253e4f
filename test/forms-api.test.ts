import { simpleFormDefinition, type TestOrganization } from './support/fixtures';
import { systemModes } from './support/start-system';
import { useSystem } from './support/use-system';

describe.each(systemModes)('Forms API (%s)', (mode) => {
  const sys = useSystem(mode, { organizations: 2 });

  const formsPath = (o: TestOrganization, rest = '') => `/organizations/${o.orgId}/forms${rest}`;

  it('creates a form (201) with a generated namespace and lists it in Default at version 1.00', async () => {
    const res = await sys.api.post(formsPath(sys.org), {
      token: sys.org.token,
      json: { type: 'root', title: 'Untitled Form', children: [{ identifier: 'Untitled_Question', title: 'Untitled Question', type: 'text' }] },
    });
    expect(res.status).toBe(201);
    const created = res.json();
    expect(created).toEqual({
      id: expect.any(Number),
      namespace: expect.stringMatching(/^http:\/\/formcast\.local\/xforms\/[0-9a-f-]{36}$/),
      name: 'Untitled Form',
    });
    const list = await sys.api.get(formsPath(sys.org, '.json'), { token: sys.org.token });
    expect(list.status).toBe(200);
    expect(list.json().forms).toContainEqual({
      id: created.id,
      name: 'Untitled Form',
      namespace: created.namespace,
      version: '1.00',
      description: '',
      group: 'Default',
    });
  });

  it('keeps a namespace the definition brings; a second form with it is a 409', async () => {
    const namespace = 'http://www.devicemagic.com/xforms/6ba08260-aaaa-bbbb-cccc-000000000001';
    const res = await sys.api.post(formsPath(sys.org), { token: sys.org.token, json: { ...simpleFormDefinition('Migrated'), namespace } });
    expect(res.status).toBe(201);
    expect(res.json().namespace).toBe(namespace);
    const again = await sys.api.post(formsPath(sys.org), { token: sys.org.token, json: { ...simpleFormDefinition('Again'), namespace } });
    expect(again.status).toBe(409);
    // The same namespace in another organization is that organization's business.
    expect((await sys.api.post(formsPath(sys.orgs[1]), { token: sys.orgs[1].token, json: { ...simpleFormDefinition(), namespace } })).status).toBe(201);
  });

  it('returns the definition, replaces it with PUT (202, new version) and keeps the namespace', async () => {
    const created = (await sys.api.post(formsPath(sys.org), { token: sys.org.token, json: simpleFormDefinition('V1') })).json();
    const shown = await sys.api.get(formsPath(sys.org, `/${created.id}.json`), { token: sys.org.token });
    expect(shown.status).toBe(200);
    // As form.md shows the definition: with its version, description and group.
    expect(shown.json()).toEqual({ ...simpleFormDefinition('V1'), namespace: created.namespace, version: '1.00', description: '', group: 'Default' });

    const updated = await sys.api.put(formsPath(sys.org, `/${created.id}.json`), { token: sys.org.token, json: simpleFormDefinition('V2') });
    expect(updated.status).toBe(202);
    expect(updated.json()).toEqual({ id: created.id, namespace: created.namespace, name: 'V2', version: '1.01' });
    expect((await sys.api.get(formsPath(sys.org, `/${created.id}`), { token: sys.org.token })).json().title).toBe('V2');
  });

  it('moves a form to a named group through its properties (200)', async () => {
    await sys.api.post(`/organizations/${sys.org.orgId}/groups`, { token: sys.org.token, json: ['Unpublished'] });
    const created = (await sys.api.post(formsPath(sys.org), { token: sys.org.token, json: simpleFormDefinition('Mover') })).json();
    const moved = await sys.api.post(formsPath(sys.org, `/${created.id}/properties`), { token: sys.org.token, json: { group: 'Unpublished' } });
    expect(moved.status).toBe(200);
    expect(moved.json().form).toMatchObject({ id: created.id, group: 'Unpublished' });
    const unknown = await sys.api.post(formsPath(sys.org, `/${created.id}/properties`), { token: sys.org.token, json: { group: 'Nowhere' } });
    expect(unknown.status).toBe(400);
    expect(unknown.text).toMatch(/Nowhere/);
  });

  it('deletes a form (200); afterwards and for foreign ids, 404', async () => {
    const created = (await sys.api.post(formsPath(sys.org), { token: sys.org.token, json: simpleFormDefinition('Gone') })).json();
    const theirs = (await sys.api.post(formsPath(sys.orgs[1]), { token: sys.orgs[1].token, json: simpleFormDefinition('Theirs') })).json();
    expect((await sys.api.delete(formsPath(sys.org, `/${created.id}`), { token: sys.org.token })).status).toBe(200);
    expect((await sys.api.get(formsPath(sys.org, `/${created.id}.json`), { token: sys.org.token })).status).toBe(404);
    expect((await sys.api.get(formsPath(sys.org, `/${theirs.id}.json`), { token: sys.org.token })).status).toBe(404);
    expect((await sys.api.delete(formsPath(sys.org, `/${theirs.id}`), { token: sys.org.token })).status).toBe(404);
    expect((await sys.api.get(formsPath(sys.orgs[1], `/${theirs.id}.json`), { token: sys.orgs[1].token })).status).toBe(200);
  });

  it.each([
    ['not a root', { type: 'group', title: 'x', children: [] }, /type/],
    ['no title', { type: 'root', children: [] }, /title/],
    ['an unknown question type', { type: 'root', title: 'x', children: [{ identifier: 'a', type: 'hologram' }] }, /children\[0\]\.type/],
    ['a group without children', { type: 'root', title: 'x', children: [{ identifier: 'g', type: 'group' }] }, /children\[0\]\.children/],
    ['a duplicate identifier', { type: 'root', title: 'x', children: [{ identifier: 'a', type: 'text' }, { identifier: 'a', type: 'text' }] }, /used twice/],
    ['__proto__ as an identifier', { type: 'root', title: 'x', children: [{ identifier: '__proto__', type: 'text' }] }, /identifier/],
    ['a relative namespace', { type: 'root', title: 'x', namespace: 'not a uri', children: [] }, /namespace/],
    ['an array', [1, 2], /definition/],
  ])('refuses a definition with %s (400), storing nothing', async (_name, definition, message) => {
    const before = (await sys.api.get(formsPath(sys.org, '.json'), { token: sys.org.token })).json().forms.length;
    const res = await sys.api.post(formsPath(sys.org), { token: sys.org.token, json: definition });
    expect(res.status).toBe(400);
    expect(res.text).toMatch(message);
    expect((await sys.api.get(formsPath(sys.org, '.json'), { token: sys.org.token })).json().forms).toHaveLength(before);
  });
});
