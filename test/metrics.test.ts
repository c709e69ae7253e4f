import { createServer } from 'node:net';
import { serviceStarters } from '@formcast/embedded';
import { configureMetrics, parseExposition, renderMetrics, sampleValue, type Sample } from '@formcast/metrics';
import { waitFor } from '@formcast/testing';
import type { ApiClient } from './support/api-client';
import { enrollDevice, type TestDevice, type TestOrganization } from './support/fixtures';
import { httpDestinationBody, makeDestination, submitThroughPush } from './support/delivery-fixtures';
import { pushJson } from './support/push-fixtures';
import { processNameOf, startDistributed } from './support/start-distributed';
import { startSystem, systemModes, type RunningSystem, type SystemMode } from './support/start-system';
import { useStartedSystem } from './support/use-system';
import { WebhookReceiver } from './support/webhook-receiver';

/** The processes of the distributed mode; in the other modes they are one registry. */
type ProcessName = 'gateway' | 'push' | 'notifier' | 'delivery';

interface MeteredSystem extends RunningSystem {
  /** The samples `/metrics` of that process shows now. */
  scrape(process: ProcessName): Promise<Sample[]>;
}

const env = { DELIVERY_ALLOW_PRIVATE_NETWORKS: 'true' };
const adminToken = 'metrics-test-admin-token-0123456789';

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function scrapeUrl(url: string, headers: Record<string, string> = {}): Promise<Sample[]> {
  const res = await fetch(url, { headers });
  if (res.status !== 200) throw new Error(`${url} answered ${res.status}`);
  expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  return parseExposition(await res.text());
}

/**
 * embedded: `/metrics` on the one port, behind the admin token. rabbitmq: every peer is in
 * this process, so its registry is theirs. distributed: each service's health port, the
 * gateway's METRICS_PORT.
 */
async function startMetered(mode: SystemMode): Promise<MeteredSystem> {
  if (mode === 'distributed') {
    const metricsPort = await freePort();
    const system = await startDistributed({
      services: serviceStarters.map(processNameOf).filter((name): name is string => name !== undefined),
      env: { ...env, METRICS_PORT: String(metricsPort) },
      adminToken,
    });
    return {
      api: system.api,
      adminToken,
      stop: system.stop,
      scrape: (name) => scrapeUrl(`http://127.0.0.1:${name === 'gateway' ? metricsPort : system.processes.get(name)!.port}/metrics`),
    };
  }
  const system = await startSystem(mode, env);
  const scrape =
    mode === 'embedded'
      ? () => scrapeUrl(`${system.api.baseUrl}/metrics`, { authorization: `Bearer ${system.adminToken}` })
      : async () => parseExposition((await renderMetrics()).body);
  return { ...system, scrape };
}

/** Enrolls an approved device with a push token, so each push is a notification too. */
async function deviceWithPushToken(api: ApiClient, org: TestOrganization): Promise<TestDevice> {
  const device = await enrollDevice(api, org);
  const res = await api.put('/device/push_token', { bearer: device.secret, json: { push_token: `fcm-${device.identifier}` } });
  if (res.status !== 200) throw new Error(`setting the push token answered ${res.status}: ${res.text}`);
  return device;
}

const textForm = { type: 'root', title: 'Metered inspection', children: [{ identifier: 'notes', title: 'Notes', type: 'text' }] };

describe.each(systemModes)('Prometheus metrics (%s)', (mode) => {
  const sys = useStartedSystem(() => startMetered(mode), { organizations: 1, template: textForm });
  const system = () => sys.running as MeteredSystem;

  /** How far a series moved between two scrapes. */
  const moved = (before: Sample[], after: Sample[], name: string, labels: Record<string, string> = {}) =>
    sampleValue(after, name, labels) - sampleValue(before, name, labels);

  it('counts pushes by route template, their command round trips, and the notifier\'s handling, badges and sends', async () => {
    // One device a push: a device's waiting notifications merge into one send.
    const pushes = 3;
    const devices: TestDevice[] = [];
    for (let n = 0; n < pushes; n += 1) devices.push(await deviceWithPushToken(sys.api, sys.org));
    const before = { gateway: await system().scrape('gateway'), notifier: await system().scrape('notifier') };
    for (const device of devices) {
      const res = await pushJson(sys.api, sys.org, device.identifier, { form_namespace: sys.template.namespace, payload: { notes: 'visit' } });
      expect(res.status).toBe(202);
    }
    expect((await sys.api.get(`/clients/${devices[0]!.identifier}/badge.json`, { token: sys.org.token })).json()).toEqual({ badge: 1, push_token_present: true });

    // A request is counted once its answer is written ('finish'), which may come just after the client has read it.
    const pushRoute = { route: '/clients/:deviceRef/oneshots', method: 'POST' };
    const badgeRoute = { route: '/clients/:deviceRef/badge', method: 'GET', status: '200' };
    await waitFor(async () => moved(before.gateway, await system().scrape('gateway'), 'formcast_http_requests_total', badgeRoute) === 1, {
      description: 'the badge request counted',
    });
    const gateway = await system().scrape('gateway');
    expect(moved(before.gateway, gateway, 'formcast_http_requests_total', { ...pushRoute, status: '202' })).toBe(pushes);
    expect(moved(before.gateway, gateway, 'formcast_http_request_duration_seconds_count', pushRoute)).toBe(pushes);
    expect(moved(before.gateway, gateway, 'formcast_bus_command_duration_seconds_count', { command: 'push.oneshot.create', outcome: 'ok' })).toBe(pushes);
    // Route templates, never the ids of a request's path.
    const labelValues = gateway.flatMap((sample) => Object.values(sample.labels));
    expect(labelValues.filter((value) => devices.some((device) => value.includes(device.identifier)))).toEqual([]);

    const created = { consumer: 'notifier', event: 'push.oneshot.created' };
    await waitFor(
      async () => moved(before.notifier, await system().scrape('notifier'), 'formcast_bus_event_duration_seconds_count', { ...created, outcome: 'ok' }) === pushes,
      { description: 'the notifier to have handled every created event' },
    );
    const notifier = await system().scrape('notifier');
    expect(moved(before.notifier, notifier, 'formcast_badge_operations_total', { operation: 'record_outstanding' })).toBe(pushes);
    expect(moved(before.notifier, notifier, 'formcast_badge_operations_total', { operation: 'read' })).toBe(1);
    expect(moved(before.notifier, notifier, 'formcast_fcm_sends_total', { outcome: 'sent' })).toBe(pushes);
    expect(notifier.find((s) => s.name === 'formcast_bus_dead_letters' && s.labels.consumer === 'notifier')?.value).toBe(0);

    await waitFor(async () => sampleValue(await system().scrape('push'), 'formcast_outbox_backlog') === 0, { description: 'the outbox emptied' });
    const push = await system().scrape('push');
    expect(push.some((s) => s.name === 'formcast_outbox_oldest_age_seconds')).toBe(true);
    if (mode !== 'rabbitmq') {
      // The process's own metrics (a process entry point turns them on; rabbitmq mode has none).
      for (const name of ['gateway', 'push', 'notifier', 'delivery'] as const) {
        expect(sampleValue(await system().scrape(name), 'process_resident_memory_bytes')).toBeGreaterThan(0);
      }
    }
  });

  it('counts a submission\'s delivery attempt by transport and outcome', async () => {
    const receiver = await WebhookReceiver.start();
    try {
      const hook = `/hooks/metrics-${mode}`;
      await makeDestination(sys.api, sys.org, sys.template.id, httpDestinationBody(receiver.url(hook), { description: 'metered' }));
      const device = await enrollDevice(sys.api, sys.org);
      const before = await system().scrape('delivery');
      await submitThroughPush(sys.api, sys.org, device, sys.template.namespace, { notes: 'fine' });

      await waitFor(() => receiver.received(hook).length === 1, { description: 'the webhook' });
      const attempt = { transport: 'http_transport', outcome: 'delivered' };
      await waitFor(async () => moved(before, await system().scrape('delivery'), 'formcast_delivery_attempts_total', attempt) === 1, {
        description: 'the attempt counted',
      });
    } finally {
      await receiver.close();
    }
  });

  if (mode === 'embedded') {
    it('serves /metrics on the API port only with the admin token', async () => {
      const url = `${sys.api.baseUrl}/metrics`;
      expect((await fetch(url)).status).toBe(401);
      expect((await fetch(url, { headers: { authorization: `Basic ${Buffer.from(`${sys.org.token}:x`).toString('base64')}` } })).status).toBe(401);
      expect((await fetch(url, { headers: { authorization: 'Bearer not-the-admin-token' } })).status).toBe(401);
      expect((await fetch(url, { headers: { authorization: `Bearer ${sys.adminToken}` } })).status).toBe(200);
    });
  }

  if (mode === 'distributed') {
    it('keeps /metrics off the gateway\'s public port', async () => {
      const res = await fetch(`${sys.api.baseUrl}/metrics`, { headers: { authorization: `Bearer ${sys.adminToken}` } });
      expect(res.status).toBe(404);
    });
  }
});

describe('Prometheus metrics off (METRICS_ENABLED=false, embedded)', () => {
  const sys = useStartedSystem(() => startSystem('embedded', { METRICS_ENABLED: 'false' }), { organizations: 1, template: textForm });
  // The switch is the process's: on again for whatever runs after in this process.
  afterAll(() => configureMetrics({ enabled: true }));

  it('records nothing and serves no /metrics', async () => {
    const before = parseExposition((await renderMetrics()).body);
    const device = await enrollDevice(sys.api, sys.org);
    expect((await pushJson(sys.api, sys.org, device.identifier, { form_namespace: sys.template.namespace, payload: {} })).status).toBe(202);

    expect((await fetch(`${sys.api.baseUrl}/metrics`, { headers: { authorization: `Bearer ${sys.adminToken}` } })).status).toBe(404);
    const after = parseExposition((await renderMetrics()).body);
    const pushes = (samples: Sample[]) => sampleValue(samples, 'formcast_http_requests_total', { route: '/clients/:deviceRef/oneshots', method: 'POST' });
    const creates = (samples: Sample[]) => sampleValue(samples, 'formcast_bus_command_duration_seconds_count', { command: 'push.oneshot.create' });
    expect(pushes(after)).toBe(pushes(before));
    expect(creates(after)).toBe(creates(before));
  });
});
