import { enrollDevice, type TestDevice, type TestOrganization } from './support/fixtures';
import { createTemplate, pushJson, type TestTemplate } from './support/push-fixtures';
import type { ApiClient } from './support/api-client';
import { pause } from './support/raw-http';
import { systemModes } from './support/start-system';
import { useSystem } from './support/use-system';

/** A's backlog: the notifier's events of one destroy_all. */
const backlog = 4000;

async function bulkPush(api: ApiClient, org: TestOrganization, device: TestDevice, template: TestTemplate, count: number): Promise<void> {
  for (let from = 0; from < count; from += 1000) {
    const dispatches = Array.from({ length: Math.min(1000, count - from) }, () => ({ device: device.identifier, form_namespace: template.namespace, payload: {} }));
    const res = await api.post('/api/v3/dispatches/bulk.json', { token: org.token, json: { dispatches } });
    expect(res.status).toBe(200);
    expect((res.json().results as Array<{ status: number }>).every((r) => r.status === 202)).toBe(true);
  }
}

const badgeOf = async (api: ApiClient, org: TestOrganization, device: TestDevice) =>
  ((await api.get(`/clients/${device.identifier}/badge.json`, { token: org.token })).json() as { badge: number }).badge;

async function waitForBadge(api: ApiClient, org: TestOrganization, device: TestDevice, badge: number, timeoutMs: number): Promise<number> {
  const started = performance.now();
  while ((await badgeOf(api, org, device)) !== badge) {
    if (performance.now() - started > timeoutMs) throw new Error(`badge of ${device.identifier} not ${badge} within ${timeoutMs} ms`);
    await pause(50);
  }
  return performance.now() - started;
}

describe.each(systemModes)('Fair service: one organization never starves another (%s)', (mode) => {
  const sys = useSystem(mode, {
    organizations: 2,
    env: { PUSH_MAX_OUTSTANDING_PER_DEVICE: String(backlog + 10) },
  });

  it("changes another organization's badge promptly while one organization's destroy_all of thousands is being worked off", async () => {
    const [org, other] = sys.orgs;
    const [template, theirTemplate] = await Promise.all([createTemplate(sys.api, org), createTemplate(sys.api, other)]);
    const [device, theirDevice, theirQuietDevice] = await Promise.all([enrollDevice(sys.api, org), enrollDevice(sys.api, other), enrollDevice(sys.api, other)]);
    expect((await pushJson(sys.api, other, theirQuietDevice.identifier, { form_namespace: theirTemplate.namespace, payload: {} })).status).toBe(202);
    await bulkPush(sys.api, org, device, template, backlog);
    await waitForBadge(sys.api, org, device, backlog, 120_000);
    const quietBefore = (await sys.api.get(`/clients/${theirQuietDevice.identifier}/oneshots.json`, { token: other.token })).text;

    expect((await sys.api.post(`/clients/${device.identifier}/oneshots/destroy_all`, { token: org.token })).status).toBe(200);
    expect((await pushJson(sys.api, other, theirDevice.identifier, { form_namespace: theirTemplate.namespace, payload: {} })).status).toBe(202);
    const waited = await waitForBadge(sys.api, other, theirDevice, 1, 20_000);
    // Fair: the other organization's one event went ahead of the backlog's thousands.
    expect(waited).toBeLessThan(3000);

    const drained = waited + (await waitForBadge(sys.api, org, device, 0, 120_000));
    // Ahead of the backlog, not after it. FIFO, it came after all of it: 1.4 of 1.5 s (0.93) in
    // distributed mode before the fair relay. Fair, it came at 0.29–0.46 of the drain alone and
    // 0.54 once with the whole suite beside it (2026-12-08): 0.75 tells the two apart.
    expect(waited).toBeLessThan(drained * 0.75);
    expect(await badgeOf(sys.api, other, theirDevice)).toBe(1);
    expect(await badgeOf(sys.api, other, theirQuietDevice)).toBe(1);
    expect((await sys.api.get(`/clients/${theirQuietDevice.identifier}/oneshots.json`, { token: other.token })).text).toBe(quietBefore);
  }, 300_000);

  it("revokes thousands with one destroy_all in bounded steps: another organization is answered meanwhile, every badge ends right", async () => {
    const [org, other] = sys.orgs;
    const [template, theirTemplate] = await Promise.all([createTemplate(sys.api, org), createTemplate(sys.api, other)]);
    const [device, keptDevice, theirDevice] = await Promise.all([enrollDevice(sys.api, org), enrollDevice(sys.api, org), enrollDevice(sys.api, other)]);
    await bulkPush(sys.api, org, device, template, backlog);
    expect((await pushJson(sys.api, org, keptDevice.identifier, { form_namespace: template.namespace, payload: {} })).status).toBe(202);
    await waitForBadge(sys.api, org, device, backlog, 120_000);

    let revoking = true;
    const destroyAll = sys.api.post(`/clients/${device.identifier}/oneshots/destroy_all`, { token: org.token }).finally(() => (revoking = false));
    // The other organization, while the revocation runs: each of its pushes answered, none held behind it.
    const answeredDuring: number[] = [];
    let pushed = 0;
    while (revoking) {
      const started = performance.now();
      expect((await pushJson(sys.api, other, theirDevice.identifier, { form_namespace: theirTemplate.namespace, payload: {} })).status).toBe(202);
      pushed += 1;
      if (revoking) answeredDuring.push(performance.now() - started);
    }
    expect((await destroyAll).status).toBe(200);
    // Answered while it ran (the one-transaction handler answered none), none held for seconds
    // (a bound with room for a machine busy with other suites: 2.4 s was seen under a double load).
    expect(answeredDuring.length).toBeGreaterThan(0);
    expect(Math.max(...answeredDuring)).toBeLessThan(5000);

    await waitForBadge(sys.api, org, device, 0, 120_000);
    await waitForBadge(sys.api, other, theirDevice, pushed, 20_000);
    expect(await badgeOf(sys.api, org, keptDevice)).toBe(1);
    expect((await sys.api.get(`/clients/${device.identifier}/oneshots.json`, { token: org.token })).json()).toEqual([]);
    expect((await sys.api.get(`/clients/${theirDevice.identifier}/oneshots.json`, { token: other.token })).json()).toHaveLength(pushed);
  }, 300_000);
});
