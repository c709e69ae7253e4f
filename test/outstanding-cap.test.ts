import { enrollDevice } from './support/fixtures';
import { createTemplate, inspectionForm, pushJson } from './support/push-fixtures';
import { systemModes } from './support/start-system';
import { useSystem } from './support/use-system';

const maxOutstanding = 5;

describe.each(systemModes)('Outstanding dispatches per device: 422 past PUSH_MAX_OUTSTANDING_PER_DEVICE (%s)', (mode) => {
  const sys = useSystem(mode, { organizations: 2, template: inspectionForm, env: { PUSH_MAX_OUTSTANDING_PER_DEVICE: String(maxOutstanding) } });

  it('refuses one more dispatch on a full device (422, nothing stored), per item in a bulk too; other devices and organizations are served; a revoke makes room', async () => {
    const [org, other] = sys.orgs;
    const device = await enrollDevice(sys.api, org);
    const neighbour = await enrollDevice(sys.api, org);
    const theirTemplate = await createTemplate(sys.api, other);
    const theirDevice = await enrollDevice(sys.api, other);
    expect((await pushJson(sys.api, other, theirDevice.identifier, { form_namespace: theirTemplate.namespace, payload: {} })).status).toBe(202);
    const theirsBefore = (await sys.api.get(`/organizations/${other.orgId}/oneshots.json`, { token: other.token })).text;
    const push = (identifier: string) => pushJson(sys.api, org, identifier, { form_namespace: sys.template.namespace, payload: {} });
    const outstanding = async () => (await sys.api.get(`/clients/${device.identifier}/oneshots.json`, { token: org.token })).json() as Array<{ id: number }>;

    for (let n = 0; n < maxOutstanding; n += 1) expect((await push(device.identifier)).status).toBe(202);
    const refused = await push(device.identifier);
    expect(refused.status).toBe(422);
    expect(refused.json()).toMatchObject({ status: '422', message: expect.stringMatching(/PUSH_MAX_OUTSTANDING_PER_DEVICE=5/) });
    expect(await outstanding()).toHaveLength(maxOutstanding);

    const bulk = await sys.api.post('/api/v3/dispatches/bulk.json', {
      token: org.token,
      json: { dispatches: [device.identifier, neighbour.identifier].map((identifier) => ({ device: identifier, form_namespace: sys.template.namespace, payload: {} })) },
    });
    const results = bulk.json().results as Array<{ status: number }>;
    expect(results.map((r) => r.status)).toEqual([422, 202]);
    expect(await outstanding()).toHaveLength(maxOutstanding);

    const [first] = await outstanding();
    expect((await sys.api.delete(`/clients/${device.identifier}/oneshots/${first!.id}`, { token: org.token })).status).toBe(200);
    expect((await push(device.identifier)).status).toBe(202);
    expect((await sys.api.get(`/organizations/${other.orgId}/oneshots.json`, { token: other.token })).text).toBe(theirsBefore);
  });
});
