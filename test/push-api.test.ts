import type { ApiClient } from './support/api-client';
import { createOrganization, enrollDevice, type TestDevice, type TestOrganization } from './support/fixtures';
import { createTemplate, pushJson } from './support/push-fixtures';
import { startSystem, systemModes, type RunningSystem } from './support/start-system';
import { waitFor } from '@formcast/testing';

describe.each(systemModes)('Push API: oneshots (%s)', (mode) => {
  let system: RunningSystem;
  let api: ApiClient;
  let org: TestOrganization;
  let other: TestOrganization;
  let template: { id: number; namespace: string; name: string };

  beforeAll(async () => {
    system = await startSystem(mode);
    api = system.api;
    org = await createOrganization(api, system.adminToken);
    other = await createOrganization(api, system.adminToken);
    template = await createTemplate(api, org);
  });
  afterAll(() => system?.stop());

  const outstanding = async (device: TestDevice) =>
    (await api.get(`/clients/${device.identifier}/oneshots.json`, { token: org.token })).json() as Array<{ id: number }>;

  it('creates a oneshot from the documented XML (202, oneshot_list), matching the push namespace by URI', async () => {
    const device = await enrollDevice(api, org);
    const xml = `<oneshot xmlns="http://www.w3.org/2002/xforms"
         xmlns:p="http://mobileforms.devicemagic.com/xforms">
  <p:form_name>Inspection for Acme</p:form_name>
  <p:form_namespace>${template.namespace}</p:form_namespace>
  <p:form_description>Call ahead</p:form_description>
  <customer_name>Acme &amp; Sons</customer_name>
  <comments>Gate code 1234</comments>
</oneshot>`;
    const res = await api.post(`/clients/${device.identifier}/oneshots`, { token: org.token, xml });
    expect(res.status).toBe(202);
    expect(res.headers.get('content-type')).toMatch(/application\/xml/);
    const match = /<oneshot_list>\n  <oneshot>\n    <id type="integer">(\d+)<\/id>\n    <namespace>([^<]+)<\/namespace>\n    <name>Inspection for Acme<\/name>\n  <\/oneshot>\n<\/oneshot_list>/.exec(res.text);
    expect(match).not.toBeNull();
    expect(match![2]).toMatch(new RegExp(`^${template.namespace.replace(/[.?/]/g, '\\$&')}\\?[0-9a-f-]{36}$`));

    const device_side = await api.get(`/device/oneshots/${match![1]}`, { bearer: device.secret });
    expect(device_side.json().oneshot).toMatchObject({
      name: 'Inspection for Acme',
      description: 'Call ahead',
      form_namespace: template.namespace,
      payload: { customer_name: 'Acme & Sons', comments: 'Gate code 1234' },
    });
  });

  it('accepts the metadata elements without a namespace, and answers JSON with .json', async () => {
    const device = await enrollDevice(api, org);
    const res = await api.post(`/clients/${device.identifier}/oneshots.json`, {
      token: org.token,
      xml: `<oneshot><form_namespace>${template.namespace}</form_namespace><customer_name>Bare</customer_name></oneshot>`,
    });
    expect(res.status).toBe(202);
    expect(res.json()).toEqual({ oneshot_list: [{ id: expect.any(Number), namespace: expect.stringContaining('?'), name: template.name }] });
  });

  it('creates from JSON (payload may be {}), by identifier or numeric device id', async () => {
    const device = await enrollDevice(api, org);
    const byIdentifier = await api.post(`/clients/${device.identifier}/oneshots`, {
      token: org.token,
      json: { form_namespace: template.namespace, payload: {} },
    });
    expect(byIdentifier.status).toBe(202);
    expect(byIdentifier.text).toContain('<oneshot_list>');
    const byId = await api.post(`/clients/${device.id}/oneshots`, {
      token: org.token,
      json: { form_namespace: template.namespace, form_name: 'By id', payload: { customer_name: 'x' } },
      headers: { accept: 'application/json' },
    });
    expect(byId.status).toBe(202);
    expect(byId.json().oneshot_list[0].name).toBe('By id');
    expect((await outstanding(device)).length).toBe(2);
  });

  it('lists outstanding oneshots per device and per organization, XML (spec 2.8) and JSON', async () => {
    const device = await enrollDevice(api, org);
    const created = (await pushJson(api, org, device.identifier, { form_namespace: template.namespace, form_description: 'Listed', payload: {} })).json().oneshot_list[0];
    const xml = await api.get(`/clients/${device.identifier}/oneshots`, { token: org.token });
    expect(xml.status).toBe(200);
    expect(xml.text).toBe(
      [
        '<?xml version="1.0" encoding="UTF-8"?>',
        '<forms type="array">',
        '  <form>',
        '    <description>Listed</description>',
        `    <device-id type="integer">${device.id}</device-id>`,
        `    <id type="integer">${created.id}</id>`,
        `    <name>${template.name}</name>`,
        `    <namespace>${created.namespace}</namespace>`,
        `    <organization-id type="integer">${org.orgId}</organization-id>`,
        '  </form>',
        '</forms>',
        '',
      ].join('\n'),
    );
    const json = await api.get(`/clients/${device.identifier}/oneshots.json`, { token: org.token });
    expect(json.json()).toEqual([
      { description: 'Listed', device_id: device.id, id: created.id, name: template.name, namespace: created.namespace, organization_id: org.orgId },
    ]);
    const all = await api.get(`/organizations/${org.orgId}/oneshots.json`, { token: org.token });
    expect(all.json().map((o: { id: number }) => o.id)).toContain(created.id);
    const allXml = await api.get(`/organizations/${org.orgId}/oneshots`, { token: org.token });
    expect(allXml.text).toContain(`<id type="integer">${created.id}</id>`);
    expect((await api.get(`/organizations/${other.orgId}/oneshots.json`, { token: other.token })).json()).toEqual([]);
  });

  it('updates an outstanding oneshot as given; 404 on another device', async () => {
    const device = await enrollDevice(api, org);
    const second = await enrollDevice(api, org);
    const { id } = (await pushJson(api, org, device.identifier, { form_namespace: template.namespace, form_description: 'Before', payload: { customer_name: 'A' } })).json().oneshot_list[0];
    const res = await api.put(`/clients/${device.identifier}/oneshots/${id}`, { token: org.token, json: { payload: { comments: 'B' }, form_name: 'Renamed' } });
    expect(res.status).toBe(200);
    expect(res.json()).toMatchObject({ id, name: 'Renamed', description: 'Before' });
    const seen = (await api.get(`/device/oneshots/${id}`, { bearer: device.secret })).json().oneshot;
    expect(seen.payload).toEqual({ comments: 'B' });
    const wrongDevice = await api.put(`/clients/${second.identifier}/oneshots/${id}`, { token: org.token, json: { payload: {} } });
    expect(wrongDevice.status).toBe(404);
  });

  it('revokes one (200, empty): gone from listings, not updatable, revoking again is 404', async () => {
    const device = await enrollDevice(api, org);
    const { id } = (await pushJson(api, org, device.identifier, { form_namespace: template.namespace, payload: {} })).json().oneshot_list[0];
    const res = await api.delete(`/clients/${device.identifier}/oneshots/${id}`, { token: org.token });
    expect(res.status).toBe(200);
    expect(res.text).toBe('');
    expect((await outstanding(device)).map((o) => o.id)).not.toContain(id);
    const all = (await api.get(`/organizations/${org.orgId}/oneshots.json`, { token: org.token })).json();
    expect(all.map((o: { id: number }) => o.id)).not.toContain(id);
    expect((await api.put(`/clients/${device.identifier}/oneshots/${id}`, { token: org.token, json: { payload: {} } })).status).toBe(404);
    expect((await api.delete(`/clients/${device.identifier}/oneshots/${id}`, { token: org.token })).status).toBe(404);
    expect((await api.get(`/device/oneshots/${id}`, { bearer: device.secret })).status).toBe(404);
  });

  it("revokes all of a device's oneshots with destroy_all (200, empty), leaving other devices' alone", async () => {
    const device = await enrollDevice(api, org);
    const bystander = await enrollDevice(api, org);
    for (let i = 0; i < 3; i += 1) await pushJson(api, org, device.identifier, { form_namespace: template.namespace, payload: {} });
    await pushJson(api, org, bystander.identifier, { form_namespace: template.namespace, payload: {} });
    const res = await api.post(`/clients/${device.identifier}/oneshots/destroy_all`, { token: org.token });
    expect(res.status).toBe(200);
    expect(res.text).toBe('');
    expect(await outstanding(device)).toEqual([]);
    expect((await outstanding(bystander)).length).toBe(1);
  });

  it("treats another organization's devices and oneshots as unknown (404)", async () => {
    const theirs = await enrollDevice(api, other);
    const theirTemplate = await createTemplate(api, other);
    const { id } = (await pushJson(api, other, theirs.identifier, { form_namespace: theirTemplate.namespace, payload: {} })).json().oneshot_list[0];
    expect((await pushJson(api, org, theirs.identifier, { form_namespace: template.namespace, payload: {} })).status).toBe(404);
    expect((await api.get(`/clients/${theirs.identifier}/oneshots`, { token: org.token })).status).toBe(404);
    expect((await api.delete(`/clients/${theirs.identifier}/oneshots/${id}`, { token: org.token })).status).toBe(404);
    expect((await api.post(`/clients/${theirs.identifier}/oneshots/destroy_all`, { token: org.token })).status).toBe(404);
    expect((await api.get(`/organizations/${other.orgId}/oneshots`, { token: org.token })).status).toBe(404);
    const mine = await enrollDevice(api, org);
    expect((await api.delete(`/clients/${mine.identifier}/oneshots/${id}`, { token: org.token })).status).toBe(404);
    expect((await api.get(`/clients/${theirs.identifier}/oneshots.json`, { token: other.token })).json()).toHaveLength(1);
  });

  it('follows directory changes well within the cache lifetime: a new question, a deleted device', async () => {
    const device = await enrollDevice(api, org);
    const own = await createTemplate(api, org, { type: 'root', title: 'Evolving', children: [{ identifier: 'a', type: 'text' }] });
    expect((await pushJson(api, org, device.identifier, { form_namespace: own.namespace, payload: { a: '1' } })).status).toBe(202);
    expect((await pushJson(api, org, device.identifier, { form_namespace: own.namespace, payload: { b: '2' } })).status).toBe(400);

    await api.put(`/organizations/${org.orgId}/forms/${own.id}`, {
      token: org.token,
      json: { type: 'root', title: 'Evolving', children: [{ identifier: 'a', type: 'text' }, { identifier: 'b', type: 'text' }] },
    });
    // The cache keeps entries 10 s; the directory's announcement must clear it well before.
    await waitFor(async () => (await pushJson(api, org, device.identifier, { form_namespace: own.namespace, payload: { b: '2' } })).status === 202, {
      timeoutMs: 3000,
    });

    await api.delete(`/organizations/${org.orgId}/devices/${device.id}`, { token: org.token });
    await waitFor(async () => (await pushJson(api, org, device.identifier, { form_namespace: own.namespace, payload: {} })).status === 404, {
      timeoutMs: 3000,
    });
  });
});
