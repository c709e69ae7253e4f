import { enrollDevice } from './support/fixtures';
import { inspectionForm, pushJson } from './support/push-fixtures';
import { systemModes } from './support/start-system';
import { useSystem } from './support/use-system';

describe.each(systemModes)('Device side: fetch, submit, push token (%s)', (mode) => {
  const sys = useSystem(mode, { organizations: 1, template: inspectionForm });

  it('lets a device fetch its own outstanding oneshots, with payloads', async () => {
    const device = await enrollDevice(sys.api, sys.org);
    const other = await enrollDevice(sys.api, sys.org);
    const mine = (await pushJson(sys.api, sys.org, device.identifier, { form_namespace: sys.template.namespace, form_description: 'Yours', payload: { customer_name: 'Acme' } })).json().oneshot_list[0];
    const theirs = (await pushJson(sys.api, sys.org, other.identifier, { form_namespace: sys.template.namespace, payload: {} })).json().oneshot_list[0];

    const list = await sys.api.get('/device/oneshots', { bearer: device.secret });
    expect(list.status).toBe(200);
    expect(list.json().oneshots).toEqual([
      {
        id: mine.id,
        name: sys.template.name,
        description: 'Yours',
        namespace: mine.namespace,
        form_namespace: sys.template.namespace,
        payload: { customer_name: 'Acme' },
        created_at: expect.any(String),
        updated_at: expect.any(String),
      },
    ]);
    expect((await sys.api.get(`/device/oneshots/${theirs.id}`, { bearer: device.secret })).status).toBe(404);
  });

  it('completes a oneshot on submission (201); it leaves every listing; a second submission is refused', async () => {
    const device = await enrollDevice(sys.api, sys.org);
    const { id } = (await pushJson(sys.api, sys.org, device.identifier, { form_namespace: sys.template.namespace, payload: {} })).json().oneshot_list[0];
    const res = await sys.api.post(`/device/oneshots/${id}/submission`, { bearer: device.secret, json: { answers: { customer_name: { value: 'Done' } } } });
    expect(res.status).toBe(201);
    expect(res.json().submission).toEqual({ oneshot_id: id, submitted_at: expect.any(String) });
    expect((await sys.api.get('/device/oneshots', { bearer: device.secret })).json().oneshots).toEqual([]);
    expect((await sys.api.get(`/clients/${device.identifier}/oneshots.json`, { token: sys.org.token })).json()).toEqual([]);
    expect((await sys.api.delete(`/clients/${device.identifier}/oneshots/${id}`, { token: sys.org.token })).status).toBe(404);

    const again = await sys.api.post(`/device/oneshots/${id}/submission`, { bearer: device.secret, json: { answers: {} } });
    expect(again.status).toBe(409);
    expect(again.json().message).toMatch(/completed/);
  });

  it('refuses to submit a revoked oneshot, or one of another device', async () => {
    const device = await enrollDevice(sys.api, sys.org);
    const other = await enrollDevice(sys.api, sys.org);
    const { id } = (await pushJson(sys.api, sys.org, device.identifier, { form_namespace: sys.template.namespace, payload: {} })).json().oneshot_list[0];
    expect((await sys.api.post(`/device/oneshots/${id}/submission`, { bearer: other.secret, json: { answers: {} } })).status).toBe(404);
    // The path before the body: another device's oneshot is 404 whatever the answers.
    expect((await sys.api.post(`/device/oneshots/${id}/submission`, { bearer: other.secret, json: { answers: 'x' } })).status).toBe(404);
    expect((await sys.api.post(`/device/oneshots/${id}/submission`, { bearer: other.secret, body: '{', contentType: 'application/json' })).status).toBe(404);
    await sys.api.delete(`/clients/${device.identifier}/oneshots/${id}`, { token: sys.org.token });
    const res = await sys.api.post(`/device/oneshots/${id}/submission`, { bearer: device.secret, json: { answers: {} } });
    expect(res.status).toBe(409);
    expect(res.json().message).toMatch(/revoked/);
    const bad = await sys.api.post(`/device/oneshots/${id}/submission`, { bearer: device.secret, json: { answers: 'x' } });
    expect(bad.status).toBe(400);
    // Its own revoked oneshot exists for it: a body that is not JSON is 400 too, not 404.
    expect((await sys.api.post(`/device/oneshots/${id}/submission`, { bearer: device.secret, body: '{', contentType: 'application/json' })).status).toBe(400);
  });

  it('updates the push token', async () => {
    const device = await enrollDevice(sys.api, sys.org);
    expect((await sys.api.put('/device/push_token', { bearer: device.secret, json: { push_token: 'fcm-new' } })).status).toBe(200);
    expect((await sys.api.put('/device/push_token', { bearer: device.secret, json: { push_token: null } })).status).toBe(200);
    const bad = await sys.api.put('/device/push_token', { bearer: device.secret, json: { push_token: 42 } });
    expect(bad.status).toBe(400);
    expect(bad.text).toMatch(/push_token/);
  });

  it('keeps device secrets and API tokens apart (401 both ways), and refuses pending devices', async () => {
    const device = await enrollDevice(sys.api, sys.org);
    const asDevice = await sys.api.get('/device/oneshots', { bearer: sys.org.token });
    expect(asDevice.status).toBe(401);
    expect(asDevice.headers.get('www-authenticate')).toMatch(/^Bearer/);
    expect((await sys.api.get('/device/oneshots', { token: device.secret })).status).toBe(401);
    expect((await sys.api.get('/device/oneshots')).status).toBe(401);
    expect((await sys.api.get(`/clients/${device.identifier}/oneshots`, { bearer: device.secret })).status).toBe(401);
    expect((await sys.api.get(`/clients/${device.identifier}/oneshots`, { token: device.secret })).status).toBe(401);
    const pending = await enrollDevice(sys.api, sys.org, { approve: false });
    expect((await sys.api.get('/device/oneshots', { bearer: pending.secret })).status).toBe(403);
  });

  it('refuses a deleted device at once, though the gateway keeps what a secret authenticates; a pending one is served once approved', async () => {
    const device = await enrollDevice(sys.api, sys.org);
    for (let i = 0; i < 3; i++) expect((await sys.api.get('/device/oneshots', { bearer: device.secret })).status).toBe(200);
    expect((await sys.api.delete(`/organizations/${sys.org.orgId}/devices/${device.id}`, { token: sys.org.token })).status).toBe(200);
    const refused = await sys.api.get('/device/oneshots', { bearer: device.secret });
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toMatch(/^Bearer/);

    const pending = await enrollDevice(sys.api, sys.org, { approve: false });
    expect((await sys.api.get('/device/oneshots', { bearer: pending.secret })).status).toBe(403);
    expect((await sys.api.post(`/organizations/${sys.org.orgId}/devices/${pending.id}/approve`, { token: sys.org.token })).status).toBe(200);
    expect((await sys.api.get('/device/oneshots', { bearer: pending.secret })).status).toBe(200);
  });
});
