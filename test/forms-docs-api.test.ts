import { XMLParser } from 'fast-xml-parser';
import { createForm } from './support/fixtures';
import { systemModes } from './support/start-system';
import { useSystem } from './support/use-system';

const xmlParser = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '@_', parseTagValue: false, ignoreDeclaration: true, isArray: (_n, path) => path === 'forms.form' });

/**
 * Issue 22, forms as form.md documents them: the definition's version, description and group,
 * `?version=`, the list in XML, the properties in XML, lock and unlock, and a `Message` header
 * giving the reason of any failure. Another organization's form is 404 on each.
 */
describe.each(systemModes)('Forms as form.md documents them (%s)', (mode) => {
  const sys = useSystem(mode, { organizations: 2 });
  const org = () => sys.org;
  const path = (rest = '') => `/organizations/${org().orgId}/forms${rest}`;
  const token = () => ({ token: org().token });

  it('shows version, description and group in the definition; ?version= serves the current one and each earlier one, another is 404 with a Message', async () => {
    const form = await createForm(sys.api, org(), 'Versioned');
    const first = await sys.api.get(path(`/${form.id}.json`), token());
    expect(first.json()).toMatchObject({ type: 'root', title: 'Versioned', namespace: form.namespace, version: '1.00', group: 'Default', description: '' });
    const updated = await sys.api.put(path(`/${form.id}.json`), { ...token(), json: { type: 'root', title: 'Versioned', description: 'Second', children: [{ identifier: 'a', title: 'A', type: 'text' }] } });
    expect(updated.status).toBe(202);
    for (const version of ['1.01', '2']) {
      const shown = await sys.api.get(path(`/${form.id}.json?version=${version}`), token());
      expect([version, shown.status, shown.json().version]).toEqual([version, 200, '1.01']);
    }
    for (const version of ['1.00', '1', '1.0']) {
      const old = await sys.api.get(path(`/${form.id}.json?version=${version}`), token());
      expect([version, old.status]).toEqual([version, 200]);
      expect(old.json()).toEqual({ ...first.json(), version: '1.00' });
      expect(old.json().children.map((q: { identifier: string }) => q.identifier)).not.toContain('a');
    }
    // The earlier one as XForms too: its own questions, not the current one's.
    const oldXforms = await sys.api.get(path(`/${form.id}.xml?version=1.00`), token());
    expect(oldXforms.status).toBe(200);
    expect(oldXforms.text).toContain('<h:title>Versioned</h:title>');
    expect(oldXforms.text).toContain('<input ref="customer_name">');
    expect(oldXforms.text).not.toContain('<input ref="a">');
    const never = await sys.api.get(path(`/${form.id}.json?version=1.05`), token());
    expect(never.status).toBe(404);
    expect(never.headers.get('message')).toBe(`Form ${form.id} has no version 1.05: its versions run from 1.00 to 1.01 (the current one)`);
    expect((await sys.api.get(path(`/${form.id}.json?version=abc`), token())).status).toBe(400);
  });

  it('lists forms in XML as <forms><form>, and takes the properties in XML', async () => {
    const form = await createForm(sys.api, org(), 'Listed');
    expect((await sys.api.post(`/organizations/${org().orgId}/groups.json`, { ...token(), json: ['Unpublished'] })).status).toBe(201);
    const moved = await sys.api.post(path(`/${form.id}/properties.xml`), { ...token(), xml: '<form_properties>\n    <group>Unpublished</group>\n</form_properties>' });
    expect(moved.status).toBe(200);
    expect(xmlParser.parse(moved.text).form).toMatchObject({ id: { '#text': String(form.id) }, group: 'Unpublished' });
    const listed = await sys.api.get(path('.xml'), token());
    expect(listed.headers.get('content-type')).toMatch(/^application\/xml/);
    const entry = xmlParser.parse(listed.text).forms.form.find((f: { id: { '#text': string } }) => f.id['#text'] === String(form.id));
    expect(entry).toMatchObject({ name: 'Listed', namespace: form.namespace, version: '1.00', group: 'Unpublished' });
    expect((await sys.api.get(path('.json'), token())).json().forms.find((f: { id: number }) => f.id === form.id).group).toBe('Unpublished');
    const unknown = await sys.api.post(path(`/${form.id}/properties.xml`), { ...token(), xml: '<form_properties><group>Nowhere</group></form_properties>' });
    expect(unknown.status).toBeGreaterThanOrEqual(400);
    expect(unknown.headers.get('message')).toMatch(/Nowhere/);
  });

  it('PUT /api/v3/forms/<id>/lock: 200 empty; a locked form refuses a new definition (409, Message naming the unlock) until unlocked', async () => {
    const form = await createForm(sys.api, org(), 'Lockable');
    const definition = { type: 'root', title: 'Lockable', children: [{ identifier: 'b', title: 'B', type: 'text' }] };
    const locked = await sys.api.put(`/api/v3/forms/${form.id}/lock`, token());
    expect([locked.status, locked.text]).toEqual([200, '']);
    expect((await sys.api.put(`/api/v3/forms/${form.id}/lock.json`, token())).status).toBe(200);
    const refused = await sys.api.put(path(`/${form.id}.json`), { ...token(), json: definition });
    expect(refused.status).toBe(409);
    expect(refused.headers.get('message')).toBe(`Form ${form.id} is locked: unlock it (PUT /api/v3/forms/${form.id}/unlock) to change its definition`);
    expect((await sys.api.get(path(`/${form.id}.json`), token())).json().version).toBe('1.00');
    const unlocked = await sys.api.put(`/api/v3/forms/${form.id}/unlock.XML`, token());
    expect([unlocked.status, unlocked.text]).toEqual([200, '']);
    expect((await sys.api.put(path(`/${form.id}.json`), { ...token(), json: definition })).status).toBe(202);
    const missing = await sys.api.put('/api/v3/forms/987654321/lock', token());
    expect(missing.status).toBe(404);
    expect(missing.headers.get('message')).toBe('Form 987654321 does not exist');
  });

  it("another organization's form is 404 on every path here, and stays as it was", async () => {
    const theirs = await createForm(sys.api, sys.orgs[1], 'Theirs');
    const mine = token();
    for (const [method, p, options] of [
      ['PUT', `/api/v3/forms/${theirs.id}/lock`, {}],
      ['PUT', `/api/v3/forms/${theirs.id}/unlock`, {}],
      ['GET', path(`/${theirs.id}.json?version=1.00`), {}],
      ['POST', path(`/${theirs.id}/properties.xml`), { xml: '<form_properties><group>Default</group></form_properties>' }],
      ['GET', `/organizations/${sys.orgs[1].orgId}/forms.xml`, {}],
      ['GET', path(`/${theirs.id}.xml`), {}],
      ['GET', path(`/${theirs.id}.xml?version=1.00`), {}],
      ['PUT', path(`/${theirs.id}.xml`), { xml: xformsOf('Mine now') }],
    ] as const) {
      const res = await sys.api.request(method, p, { ...mine, ...options });
      expect([method, p, res.status]).toEqual([method, p, 404]);
    }
    // Not locked by the attempt: its owner still changes it.
    const changed = await sys.api.put(`/organizations/${sys.orgs[1].orgId}/forms/${theirs.id}.json`, { token: sys.orgs[1].token, json: { type: 'root', title: 'Theirs', children: [] } });
    expect(changed.status).toBe(202);
    expect((await sys.api.get(`/organizations/${sys.orgs[1].orgId}/forms/${theirs.id}.json`, { token: sys.orgs[1].token })).json()).toMatchObject({ title: 'Theirs', version: '1.01' });
  });

  it('creates and updates a form from XForms, answering <form> in XML; GET .xml gives it back as <h:html>', async () => {
    const created = await sys.api.post(path('.xml'), { ...token(), xml: xformsOf('Dock check', 'http://forms.example.com/dock') });
    expect(created.status).toBe(201);
    expect(created.headers.get('content-type')).toMatch(/^application\/xml/);
    const form = xmlParser.parse(created.text).form;
    expect(form).toMatchObject({ namespace: 'http://forms.example.com/dock', name: 'Dock check' });
    const id = Number(form.id['#text']);
    expect((await sys.api.get(path(`/${id}.json`), token())).json()).toMatchObject({
      title: 'Dock check',
      namespace: 'http://forms.example.com/dock',
      children: [{ identifier: 'dock', type: 'text', title: 'Dock' }, { identifier: 'count', type: 'integer', title: 'Count', required: true }],
    });
    const updated = await sys.api.put(path(`/${id}.xml`), { ...token(), xml: xformsOf('Dock check 2', 'http://forms.example.com/dock') });
    expect(updated.status).toBe(202);
    expect(xmlParser.parse(updated.text).form).toMatchObject({ name: 'Dock check 2', version: '1.01' });
    const shown = await sys.api.get(path(`/${id}.xml`), token());
    expect(shown.headers.get('content-type')).toMatch(/^application\/xml/);
    expect(shown.text).toContain('<h:title>Dock check 2</h:title>');
    expect(shown.text).toContain('<bind nodeset="/inputs/count" type="xsd:integer" required="true()"/>');
    // What it shows, sent back, is the same definition: a third version equal to the second.
    expect((await sys.api.put(path(`/${id}.xml`), { ...token(), xml: shown.text })).status).toBe(202);
    const [second, third] = await Promise.all(['1.01', '1.02'].map(async (v) => (await sys.api.get(path(`/${id}.json?version=${v}`), token())).json()));
    expect({ ...third, version: '1.01' }).toEqual(second);
  });

  it('refuses XForms it cannot map with 400 naming what, creating or changing nothing', async () => {
    const before = (await sys.api.get(path('.json'), token())).json().forms.length;
    const unmappable = xformsOf('Unmappable').replace("<input ref='dock'>", "<input ref='dock' appearance='minimal'>");
    const refused = await sys.api.post(path('.xml'), { ...token(), xml: unmappable });
    expect(refused.status).toBe(400);
    expect(refused.headers.get('message')).toBe('XForms: <input ref="dock">: the attribute appearance has no place in a form definition');
    expect((await sys.api.get(path('.json'), token())).json().forms.length).toBe(before);
    const form = await createForm(sys.api, org(), 'Kept');
    const definition = (await sys.api.get(path(`/${form.id}.json`), token())).json();
    expect((await sys.api.put(path(`/${form.id}.xml`), { ...token(), xml: unmappable })).status).toBe(400);
    expect((await sys.api.put(path(`/${form.id}.xml`), { ...token(), xml: '<form/>' })).status).toBe(400);
    expect((await sys.api.get(path(`/${form.id}.json`), token())).json()).toEqual(definition);
  });

  it('GET .xml of a definition XForms cannot show is 422 naming what, and .json still shows it', async () => {
    const created = await sys.api.post(path('.json'), { ...token(), json: { type: 'root', title: 'Rich', children: [{ identifier: 'a', type: 'text', validations: [{ max: 3 }] }] } });
    expect(created.status).toBe(201);
    const { id } = created.json();
    const refused = await sys.api.get(path(`/${id}.xml`), token());
    expect(refused.status).toBe(422);
    expect(refused.headers.get('message')).toMatch(/^children\[0\]\.validations: a list, which XForms cannot show/);
    expect((await sys.api.get(path(`/${id}.json`), token())).status).toBe(200);
  });
});

/** An XForms definition as form.md writes one: a text and a required integer question. */
function xformsOf(title: string, namespace = 'http://forms.example.com/xforms-test'): string {
  return `<h:html xmlns='http://www.w3.org/2002/xforms' xmlns:h='http://www.w3.org/1999/xhtml' xmlns:xsd='http://www.w3.org/2001/XMLSchema'>
  <h:head><h:title>${title}</h:title><model>
    <instance xmlns='${namespace}'><data><dock/><count/></data></instance>
    <bind nodeset='/data/count' type='xsd:integer' required='true()'/>
  </model></h:head>
  <h:body><input ref='dock'><label>Dock</label></input><input ref='count'><label>Count</label></input></h:body>
</h:html>`;
}
