import type { ApiClient } from './support/api-client';
import { createOrganization, enrollDevice, type TestOrganization } from './support/fixtures';
import { createTemplate, pushJson } from './support/push-fixtures';
import { startSystem, systemModes, type RunningSystem } from './support/start-system';

describe.each(systemModes)('Device side: fetch, submit, push token (%s)', (mode) => {
  let system: RunningSystem;
  let api: ApiClient;
  let org: TestOrganization;
  let template: { id: number; namespace: string; name: string };

  beforeAll(async () => {
    system = await startSystem(mode);
    api = system.api;
    org = await createOrganization(api, system.adminToken);
    template = await createTemplate(api, org);
  });
  afterAll(() => system?.stop());

  it('lets a device fetch its own outstanding oneshots, with payloads', async () => {
    const device = await enrollDevice(api, org);
    const other = await enrollDevice(api, org);
    const mine = (await pushJson(api, org, device.identifier, { form_namespace: template.namespace, form_description: 'Yours', payload: { customer_name: 'Acme' } })).json().oneshot_list[0];
    const theirs = (await pushJson(api, org, other.identifier, { form_namespace: template.namespace, payload: {} })).json().oneshot_list[0];

    const list = await api.get('/device/oneshots', { bearer: device.secret });
    expect(list.status).toBe(200);
    expect(list.json().oneshots).toEqual([
      {
        id: mine.id,
        name: template.name,
        description: 'Yours',
        namespace: mine.namespace,
        form_namespace: template.namespace,
        payload: { customer_name: 'Acme' },
        created_at: expect.any(String),
        updated_at: expect.any(String),
      },
    ]);
    expect((await api.get(`/device/oneshots/${theirs.id}`, { bearer: device.secret })).status).toBe(404);
  });

  it('completes a oneshot on submission (201); it leaves every listing; a second submission is refused', async () => {
    const device = await enrollDevice(api, org);
    const { id } = (await pushJson(api, org, device.identifier, { form_namespace: template.namespace, payload: {} })).json().oneshot_list[0];
    const res = await api.post(`/device/oneshots/${id}/submission`, { bearer: device.secret, json: { answers: { customer_name: { value: 'Done' } } } });
    expect(res.status).toBe(201);
    expect(res.json().submission).toEqual({ oneshot_id: id, submitted_at: expect.any(String) });
    expect((await api.get('/device/oneshots', { bearer: device.secret })).json().oneshots).toEqual([]);
    expect((await api.get(`/clients/${device.identifier}/oneshots.json`, { token: org.token })).json()).toEqual([]);
    expect((await api.delete(`/clients/${device.identifier}/oneshots/${id}`, { token: org.token })).status).toBe(404);

    const again = await api.post(`/device/oneshots/${id}/submission`, { bearer: device.secret, json: { answers: {} } });
    expect(again.status).toBe(409);
    expect(again.json().message).toMatch(/completed/);
  });

  it('refuses to submit a revoked oneshot, or one of another device', async () => {
    const device = await enrollDevice(api, org);
    const other = await enrollDevice(api, org);
    const { id } = (await pushJson(api, org, device.identifier, { form_namespace: template.namespace, payload: {} })).json().oneshot_list[0];
    expect((await api.post(`/device/oneshots/${id}/submission`, { bearer: other.secret, json: { answers: {} } })).status).toBe(404);
    await api.delete(`/clients/${device.identifier}/oneshots/${id}`, { token: org.token });
    const res = await api.post(`/device/oneshots/${id}/submission`, { bearer: device.secret, json: { answers: {} } });
    expect(res.status).toBe(409);
    expect(res.json().message).toMatch(/revoked/);
    const bad = await api.post(`/device/oneshots/${id}/submission`, { bearer: device.secret, json: { answers: 'x' } });
    expect(bad.status).toBe(400);
  });

  it('updates the push token', async () => {
    const device = await enrollDevice(api, org);
    expect((await api.put('/device/push_token', { bearer: device.secret, json: { push_token: 'fcm-new' } })).status).toBe(200);
    expect((await api.put('/device/push_token', { bearer: device.secret, json: { push_token: null } })).status).toBe(200);
    const bad = await api.put('/device/push_token', { bearer: device.secret, json: { push_token: 42 } });
    expect(bad.status).toBe(400);
    expect(bad.text).toMatch(/push_token/);
  });

  it('keeps device secrets and API tokens apart (401 both ways), and refuses pending devices', async () => {
    const device = await enrollDevice(api, org);
    const asDevice = await api.get('/device/oneshots', { bearer: org.token });
    expect(asDevice.status).toBe(401);
    expect(asDevice.headers.get('www-authenticate')).toMatch(/^Bearer/);
    expect((await api.get('/device/oneshots', { token: device.secret })).status).toBe(401);
    expect((await api.get('/device/oneshots')).status).toBe(401);
    expect((await api.get(`/clients/${device.identifier}/oneshots`, { bearer: device.secret })).status).toBe(401);
    expect((await api.get(`/clients/${device.identifier}/oneshots`, { token: device.secret })).status).toBe(401);
    const pending = await enrollDevice(api, org, { approve: false });
    expect((await api.get('/device/oneshots', { bearer: pending.secret })).status).toBe(403);
  });
});
