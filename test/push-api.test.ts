import { enrollDevice, type TestDevice } from './support/fixtures';
import { createTemplate, inspectionForm, pushJson } from './support/push-fixtures';
import { systemModes } from './support/start-system';
import { useSystem } from './support/use-system';
import { waitFor } from '@formcast/testing';

describe.each(systemModes)('Push API: oneshots (%s)', (mode) => {
  const sys = useSystem(mode, { organizations: 2, template: inspectionForm });

  const outstanding = async (device: TestDevice) =>
    (await sys.api.get(`/clients/${device.identifier}/oneshots.json`, { token: sys.org.token })).json() as Array<{ id: number }>;

  it('creates a oneshot from the documented XML (202, oneshot_list), matching the push namespace by URI', async () => {
    const device = await enrollDevice(sys.api, sys.org);
    const xml = `<oneshot xmlns="http://www.w3.org/2002/xforms"
         xmlns:p="http://mobileforms.devicemagic.com/xforms">
  <p:form_name>Inspection for Acme</p:form_name>
  <p:form_namespace>${sys.template.namespace}</p:form_namespace>
  <p:form_description>Call ahead</p:form_description>
  <customer_name>Acme &amp; Sons</customer_name>
  <comments>Gate code 1234</comments>
</oneshot>`;
    const res = await sys.api.post(`/clients/${device.identifier}/oneshots`, { token: sys.org.token, xml });
    expect(res.status).toBe(202);
    expect(res.headers.get('content-type')).toMatch(/application\/xml/);
    const match = /<oneshot_list>\n  <oneshot>\n    <id type="integer">(\d+)<\/id>\n    <namespace>([^<]+)<\/namespace>\n    <name>Inspection for Acme<\/name>\n  <\/oneshot>\n<\/oneshot_list>/.exec(res.text);
    expect(match).not.toBeNull();
    expect(match![2]).toMatch(new RegExp(`^${sys.template.namespace.replace(/[.?/]/g, '\\$&')}\\?[0-9a-f-]{36}$`));

    const device_side = await sys.api.get(`/device/oneshots/${match![1]}`, { bearer: device.secret });
    expect(device_side.json().oneshot).toMatchObject({
      name: 'Inspection for Acme',
      description: 'Call ahead',
      form_namespace: sys.template.namespace,
      payload: { customer_name: 'Acme & Sons', comments: 'Gate code 1234' },
    });
  });

  it('accepts the metadata elements without a namespace, and answers JSON with .json', async () => {
    const device = await enrollDevice(sys.api, sys.org);
    const res = await sys.api.post(`/clients/${device.identifier}/oneshots.json`, {
      token: sys.org.token,
      xml: `<oneshot><form_namespace>${sys.template.namespace}</form_namespace><customer_name>Bare</customer_name></oneshot>`,
    });
    expect(res.status).toBe(202);
    expect(res.json()).toEqual({ oneshot_list: [{ id: expect.any(Number), namespace: expect.stringContaining('?'), name: sys.template.name }] });
  });

  it('creates from JSON (payload may be {}), by identifier or numeric device id', async () => {
    const device = await enrollDevice(sys.api, sys.org);
    const byIdentifier = await sys.api.post(`/clients/${device.identifier}/oneshots`, {
      token: sys.org.token,
      json: { form_namespace: sys.template.namespace, payload: {} },
    });
    expect(byIdentifier.status).toBe(202);
    expect(byIdentifier.text).toContain('<oneshot_list>');
    const byId = await sys.api.post(`/clients/${device.id}/oneshots`, {
      token: sys.org.token,
      json: { form_namespace: sys.template.namespace, form_name: 'By id', payload: { customer_name: 'x' } },
      headers: { accept: 'application/json' },
    });
    expect(byId.status).toBe(202);
    expect(byId.json().oneshot_list[0].name).toBe('By id');
    expect((await outstanding(device)).length).toBe(2);
  });

  it('lists outstanding oneshots per device and per organization, XML (spec 2.8) and JSON', async () => {
    const device = await enrollDevice(sys.api, sys.org);
    const created = (await pushJson(sys.api, sys.org, device.identifier, { form_namespace: sys.template.namespace, form_description: 'Listed', payload: {} })).json().oneshot_list[0];
    const xml = await sys.api.get(`/clients/${device.identifier}/oneshots`, { token: sys.org.token });
    expect(xml.status).toBe(200);
    expect(xml.text).toBe(
      [
        '<?xml version="1.0" encoding="UTF-8"?>',
        '<forms type="array">',
        '  <form>',
        '    <description>Listed</description>',
        `    <device-id type="integer">${device.id}</device-id>`,
        `    <id type="integer">${created.id}</id>`,
        `    <name>${sys.template.name}</name>`,
        `    <namespace>${created.namespace}</namespace>`,
        `    <organization-id type="integer">${sys.org.orgId}</organization-id>`,
        '  </form>',
        '</forms>',
        '',
      ].join('\n'),
    );
    const json = await sys.api.get(`/clients/${device.identifier}/oneshots.json`, { token: sys.org.token });
    expect(json.json()).toEqual([
      { description: 'Listed', device_id: device.id, id: created.id, name: sys.template.name, namespace: created.namespace, organization_id: sys.org.orgId },
    ]);
    const all = await sys.api.get(`/organizations/${sys.org.orgId}/oneshots.json`, { token: sys.org.token });
    expect(all.json().map((o: { id: number }) => o.id)).toContain(created.id);
    const allXml = await sys.api.get(`/organizations/${sys.org.orgId}/oneshots`, { token: sys.org.token });
    expect(allXml.text).toContain(`<id type="integer">${created.id}</id>`);
    expect((await sys.api.get(`/organizations/${sys.orgs[1].orgId}/oneshots.json`, { token: sys.orgs[1].token })).json()).toEqual([]);
  });

  it('updates an outstanding oneshot as given; 404 on another device', async () => {
    const device = await enrollDevice(sys.api, sys.org);
    const second = await enrollDevice(sys.api, sys.org);
    const { id } = (await pushJson(sys.api, sys.org, device.identifier, { form_namespace: sys.template.namespace, form_description: 'Before', payload: { customer_name: 'A' } })).json().oneshot_list[0];
    const res = await sys.api.put(`/clients/${device.identifier}/oneshots/${id}`, { token: sys.org.token, json: { payload: { comments: 'B' }, form_name: 'Renamed' } });
    expect(res.status).toBe(200);
    expect(res.json()).toMatchObject({ id, name: 'Renamed', description: 'Before' });
    const seen = (await sys.api.get(`/device/oneshots/${id}`, { bearer: device.secret })).json().oneshot;
    expect(seen.payload).toEqual({ comments: 'B' });
    const wrongDevice = await sys.api.put(`/clients/${second.identifier}/oneshots/${id}`, { token: sys.org.token, json: { payload: {} } });
    expect(wrongDevice.status).toBe(404);
  });

  it('revokes one (200, empty): gone from listings, not updatable, revoking again is 404', async () => {
    const device = await enrollDevice(sys.api, sys.org);
    const { id } = (await pushJson(sys.api, sys.org, device.identifier, { form_namespace: sys.template.namespace, payload: {} })).json().oneshot_list[0];
    const res = await sys.api.delete(`/clients/${device.identifier}/oneshots/${id}`, { token: sys.org.token });
    expect(res.status).toBe(200);
    expect(res.text).toBe('');
    expect((await outstanding(device)).map((o) => o.id)).not.toContain(id);
    const all = (await sys.api.get(`/organizations/${sys.org.orgId}/oneshots.json`, { token: sys.org.token })).json();
    expect(all.map((o: { id: number }) => o.id)).not.toContain(id);
    expect((await sys.api.put(`/clients/${device.identifier}/oneshots/${id}`, { token: sys.org.token, json: { payload: {} } })).status).toBe(404);
    expect((await sys.api.delete(`/clients/${device.identifier}/oneshots/${id}`, { token: sys.org.token })).status).toBe(404);
    expect((await sys.api.get(`/device/oneshots/${id}`, { bearer: device.secret })).status).toBe(404);
  });

  it("revokes all of a device's oneshots with destroy_all (200, empty), leaving other devices' alone", async () => {
    const device = await enrollDevice(sys.api, sys.org);
    const bystander = await enrollDevice(sys.api, sys.org);
    for (let i = 0; i < 3; i += 1) await pushJson(sys.api, sys.org, device.identifier, { form_namespace: sys.template.namespace, payload: {} });
    await pushJson(sys.api, sys.org, bystander.identifier, { form_namespace: sys.template.namespace, payload: {} });
    const res = await sys.api.post(`/clients/${device.identifier}/oneshots/destroy_all`, { token: sys.org.token });
    expect(res.status).toBe(200);
    expect(res.text).toBe('');
    expect(await outstanding(device)).toEqual([]);
    expect((await outstanding(bystander)).length).toBe(1);
  });

  it("treats another organization's devices and oneshots as unknown (404)", async () => {
    const theirs = await enrollDevice(sys.api, sys.orgs[1]);
    const theirTemplate = await createTemplate(sys.api, sys.orgs[1]);
    const { id } = (await pushJson(sys.api, sys.orgs[1], theirs.identifier, { form_namespace: theirTemplate.namespace, payload: {} })).json().oneshot_list[0];
    expect((await pushJson(sys.api, sys.org, theirs.identifier, { form_namespace: sys.template.namespace, payload: {} })).status).toBe(404);
    expect((await sys.api.get(`/clients/${theirs.identifier}/oneshots`, { token: sys.org.token })).status).toBe(404);
    expect((await sys.api.delete(`/clients/${theirs.identifier}/oneshots/${id}`, { token: sys.org.token })).status).toBe(404);
    expect((await sys.api.post(`/clients/${theirs.identifier}/oneshots/destroy_all`, { token: sys.org.token })).status).toBe(404);
    expect((await sys.api.get(`/organizations/${sys.orgs[1].orgId}/oneshots`, { token: sys.org.token })).status).toBe(404);
    const mine = await enrollDevice(sys.api, sys.org);
    expect((await sys.api.delete(`/clients/${mine.identifier}/oneshots/${id}`, { token: sys.org.token })).status).toBe(404);
    expect((await sys.api.get(`/clients/${theirs.identifier}/oneshots.json`, { token: sys.orgs[1].token })).json()).toHaveLength(1);
  });

  it('follows directory changes well within the cache lifetime: a new question, a deleted device', async () => {
    const device = await enrollDevice(sys.api, sys.org);
    const own = await createTemplate(sys.api, sys.org, { type: 'root', title: 'Evolving', children: [{ identifier: 'a', type: 'text' }] });
    expect((await pushJson(sys.api, sys.org, device.identifier, { form_namespace: own.namespace, payload: { a: '1' } })).status).toBe(202);
    expect((await pushJson(sys.api, sys.org, device.identifier, { form_namespace: own.namespace, payload: { b: '2' } })).status).toBe(400);

    await sys.api.put(`/organizations/${sys.org.orgId}/forms/${own.id}`, {
      token: sys.org.token,
      json: { type: 'root', title: 'Evolving', children: [{ identifier: 'a', type: 'text' }, { identifier: 'b', type: 'text' }] },
    });
    // The cache keeps entries 10 s; the directory's announcement must clear it well before.
    await waitFor(async () => (await pushJson(sys.api, sys.org, device.identifier, { form_namespace: own.namespace, payload: { b: '2' } })).status === 202, {
      timeoutMs: 3000,
    });

    await sys.api.delete(`/organizations/${sys.org.orgId}/devices/${device.id}`, { token: sys.org.token });
    await waitFor(async () => (await pushJson(sys.api, sys.org, device.identifier, { form_namespace: own.namespace, payload: {} })).status === 404, {
      timeoutMs: 3000,
    });
  });

  it("withdraws a deleted form's outstanding oneshots, which no device could submit any more: gone from the listings, another form's stay", async () => {
    const first = await enrollDevice(sys.api, sys.org);
    const second = await enrollDevice(sys.api, sys.org);
    const doomed = await createTemplate(sys.api, sys.org, { type: 'root', title: 'Doomed', children: [{ identifier: 'a', type: 'text' }] });
    const push = async (device: TestDevice, namespace: string) => {
      const res = await pushJson(sys.api, sys.org, device.identifier, { form_namespace: namespace, payload: {} });
      expect(res.status).toBe(202);
      return res.json().oneshot_list[0].id as number;
    };
    const doomedIds = [await push(first, doomed.namespace), await push(first, doomed.namespace), await push(second, doomed.namespace)];
    const kept = [await push(first, sys.template.namespace), await push(second, sys.template.namespace)];
    const deviceSees = async (device: TestDevice) =>
      ((await sys.api.get('/device/oneshots', { bearer: device.secret })).json() as { oneshots: Array<{ id: number }> }).oneshots.map((o) => o.id);
    expect(await deviceSees(first)).toEqual(expect.arrayContaining([doomedIds[0], doomedIds[1], kept[0]]));

    expect((await sys.api.delete(`/organizations/${sys.org.orgId}/forms/${doomed.id}`, { token: sys.org.token })).status).toBe(200);
    const listed = await waitFor(async () => {
      const ids = ((await sys.api.get(`/organizations/${sys.org.orgId}/oneshots.json`, { token: sys.org.token })).json() as Array<{ id: number }>).map((o) => o.id);
      return doomedIds.some((id) => ids.includes(id)) ? undefined : ids;
    }, { timeoutMs: 5000, description: "the deleted form's oneshots withdrawn" });
    expect(listed).toEqual(expect.arrayContaining(kept));
    expect(await deviceSees(first)).not.toContain(doomedIds[0]);
    expect(await deviceSees(first)).toContain(kept[0]);
    expect(await deviceSees(second)).toEqual(expect.arrayContaining([kept[1]]));
    expect(await deviceSees(second)).not.toContain(doomedIds[2]);
  });

  it("withdraws a deleted device's outstanding oneshots: the organization's listings stop showing them, another device's stay", async () => {
    const gone = await enrollDevice(sys.api, sys.org);
    const staying = await enrollDevice(sys.api, sys.org);
    const push = async (device: TestDevice) => {
      const res = await pushJson(sys.api, sys.org, device.identifier, { form_namespace: sys.template.namespace, payload: {} });
      expect(res.status).toBe(202);
      return res.json().oneshot_list[0].id as number;
    };
    const goneIds = [await push(gone), await push(gone)];
    const stayingId = await push(staying);
    const listed = async () => {
      const oneshots = (await sys.api.get(`/organizations/${sys.org.orgId}/oneshots.json`, { token: sys.org.token })).json() as Array<{ id: number }>;
      const dispatches = (await sys.api.get('/api/v3/organization_dispatches.json', { token: sys.org.token })).json() as { dispatches: Array<{ id: number }> };
      return { oneshots: oneshots.map((o) => o.id), dispatches: dispatches.dispatches.map((d) => d.id) };
    };
    const before = await listed();
    for (const id of [...goneIds, stayingId]) {
      expect(before.oneshots).toContain(id);
      expect(before.dispatches).toContain(id);
    }

    expect((await sys.api.delete(`/organizations/${sys.org.orgId}/devices/${gone.id}`, { token: sys.org.token })).status).toBe(200);
    const after = await waitFor(async () => {
      const now = await listed();
      return goneIds.some((id) => now.oneshots.includes(id) || now.dispatches.includes(id)) ? undefined : now;
    }, { timeoutMs: 5000, description: "the deleted device's oneshots withdrawn" });
    expect(after.oneshots).toContain(stayingId);
    expect(after.dispatches).toContain(stayingId);
    // Ended, as a revoked dispatch is: shown by its id (any state), no longer revocable.
    expect((await sys.api.get(`/api/v3/dispatches/${goneIds[0]}.json`, { token: sys.org.token })).status).toBe(200);
    expect((await sys.api.delete(`/api/v3/dispatches/${goneIds[0]}.json`, { token: sys.org.token })).status).toBe(404);
  });
});
