import { createOrganization } from './support/fixtures';
import { systemModes } from './support/start-system';
import { useSystem } from './support/use-system';
import { waitFor } from '@formcast/testing';

describe.each(systemModes)('Authentication and administration (%s)', (mode) => {
  const sys = useSystem(mode);

  it('creates an organization with its first API token and enrollment code (201)', async () => {
    const res = await sys.api.post('/admin/organizations', { bearer: sys.adminToken, json: { name: 'Acme Field Services' } });
    expect(res.status).toBe(201);
    expect(res.json()).toEqual({
      organization: { id: expect.any(Number), name: 'Acme Field Services', enrollment_code: expect.any(String) },
      api_token: expect.any(String),
    });
    const { organization, api_token } = res.json();
    const groups = await sys.api.get(`/organizations/${organization.id}/groups.json`, { token: api_token });
    expect(groups.status).toBe(200);
  });

  it('guards administration with the admin token', async () => {
    const none = await sys.api.post('/admin/organizations', { json: { name: 'x' } });
    expect(none.status).toBe(401);
    const wrong = await sys.api.post('/admin/organizations', { bearer: 'wrong-token-0123456789', json: { name: 'x' } });
    expect(wrong.status).toBe(401);
    const basic = await sys.api.post('/admin/organizations', { token: sys.adminToken, json: { name: 'x' } });
    expect(basic.status).toBe(401);
    const noName = await sys.api.post('/admin/organizations', { bearer: sys.adminToken, json: {} });
    expect(noName.status).toBe(400);
    expect(noName.text).toMatch(/name/);
  });

  it('answers 401 with a Basic challenge without a token, with a wrong one, and to a revoked one', async () => {
    const org = await createOrganization(sys.api, sys.adminToken);
    const path = `/organizations/${org.orgId}/groups.json`;
    for (const res of [await sys.api.get(path), await sys.api.get(path, { token: 'not-a-real-token' }), await sys.api.get(path, { bearer: org.token })]) {
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toMatch(/^Basic realm="/);
    }
    // The password is ignored, as in the real product.
    const anyPassword = await sys.api.get(path, { headers: { authorization: `Basic ${Buffer.from(`${org.token}:whatever`).toString('base64')}` } });
    expect(anyPassword.status).toBe(200);

    const issued = await sys.api.post(`/admin/organizations/${org.orgId}/tokens`, { bearer: sys.adminToken, json: { label: 'ci' } });
    expect(issued.status).toBe(201);
    const second = issued.json();
    expect(second).toEqual({ id: expect.any(Number), label: 'ci', api_token: expect.any(String) });
    expect((await sys.api.get(path, { token: second.api_token })).status).toBe(200);

    const tokens = await sys.api.get(`/admin/organizations/${org.orgId}/tokens`, { bearer: sys.adminToken });
    expect(tokens.json().tokens).toHaveLength(2);
    expect(tokens.text).not.toContain(second.api_token);

    const revoked = await sys.api.delete(`/admin/organizations/${org.orgId}/tokens/${second.id}`, { bearer: sys.adminToken });
    expect(revoked.status).toBe(200);
    // The gateway hears of the revocation and drops its cached authentication.
    await waitFor(async () => (await sys.api.get(path, { token: second.api_token })).status === 401, { timeoutMs: 3000 });
    expect((await sys.api.get(path, { token: org.token })).status).toBe(200);
  });

  it('answers /healthz and /readyz without credentials', async () => {
    expect((await sys.api.get('/healthz')).status).toBe(200);
    const ready = await sys.api.get('/readyz');
    expect(ready.status).toBe(200);
    expect(ready.json()).toEqual({ status: 'ready' });
  });

  it('answers 404 for unknown endpoints and formats', async () => {
    const org = await createOrganization(sys.api, sys.adminToken);
    expect((await sys.api.get('/nowhere')).status).toBe(404);
    expect((await sys.api.get(`/organizations/${org.orgId}/groups.yaml`, { token: org.token })).status).toBe(404);
    expect((await sys.api.get(`/organizations/abc/groups.json`, { token: org.token })).status).toBe(404);
  });
});
