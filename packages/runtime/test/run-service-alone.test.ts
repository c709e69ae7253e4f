import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect, type Channel, type ChannelModel } from 'amqplib';
import { AmqpBus, topologyFor, type Bus } from '@formcast/bus';
import { createEnvelope } from '@formcast/contracts';
import { createLogger, parseSettings, type RunningService, type ServiceStarter } from '@formcast/platform';
import { configureMetrics, parseExposition, sampleValue } from '@formcast/metrics';
import { deleteTestTopology, uniqueName, waitFor } from '@formcast/testing';
import { startServiceAlone, type ServiceAlone } from '../src/run-service-alone';

const url = process.env.AMQP_URL ?? 'amqp://guest:guest@127.0.0.1:5672';

const logger = createLogger({ level: 'silent' });
const serviceName = 'probe';

async function get(port: number, path: string): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(`http://127.0.0.1:${port}${path}`);
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

/** A promise with its resolve function, to hold a handler until the test lets it go. */
function gate(): { opened: Promise<void>; open: () => void } {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { opened, open };
}

/** Every handler gate made, opened after each test: a failed one leaves no handler, and no stop, waiting. */
const handlerGates: Array<{ open: () => void }> = [];

/** A service whose readiness and one slow command the test controls, recording what happened when. */
function controlledService(events: string[]) {
  const control = { pingError: null as Error | null, release: gate(), started: gate() };
  handlerGates.push(control.release);
  const starter: ServiceStarter<Bus> = async ({ bus }) => {
    bus.handleCommand(serviceName, 'probe.slow', async () => {
      events.push('handler started');
      control.started.open();
      await control.release.opened;
      events.push('handler finished');
      return { done: true };
    });
    const service: RunningService = {
      name: serviceName,
      ping: async () => {
        if (control.pingError) throw control.pingError;
      },
      stop: async () => {
        events.push('service stopped');
      },
    };
    return service;
  };
  return { control, starter };
}

describe('a service running alone: health endpoints and graceful stop', () => {
  const prefix = uniqueName('alone');
  const commandQueue = topologyFor(prefix).commandQueue(serviceName);
  const dataDir = mkdtempSync(join(tmpdir(), 'formcast-alone-'));
  const settings = parseSettings({ AMQP_URL: url, AMQP_PREFIX: prefix, HEALTH_PORT: '0', DATA_DIR: dataDir });
  const client = new AmqpBus({ url, logger, prefix, connectionName: 'alone-test-client' });
  const running: ServiceAlone[] = [];
  /** A connection of the test's own, to see the command queue as the broker does. */
  let observer: ChannelModel;
  let looking: Channel;

  afterEach(() => handlerGates.splice(0).forEach((handlerGate) => handlerGate.open()));
  beforeAll(async () => {
    await client.start();
    observer = await connect(url);
    looking = await observer.createChannel();
  });
  afterAll(async () => {
    await Promise.all(running.map((service) => service.stop()));
    await client.close();
    await observer.close();
    await deleteTestTopology(url, prefix, [serviceName]);
    rmSync(dataDir, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
  });

  /** Messages waiting in the command queue (delivered ones awaiting their ack not counted), and its consumers. */
  const commandQueueState = () => looking.checkQueue(commandQueue);

  const send = (type: string, timeoutMs: number) => client.request(createEnvelope(type, {}), { timeoutMs });

  it('answers /healthz at once, /readyz only while its bus is up and its stores answer', async () => {
    const { control, starter } = controlledService([]);
    const service = await startServiceAlone(serviceName, starter, { settings, logger });
    running.push(service);
    expect(service.healthPort).toBeGreaterThan(0);

    expect(await get(service.healthPort, '/healthz')).toEqual({ status: 200, body: { status: 'ok' } });
    expect(await get(service.healthPort, '/readyz')).toEqual({ status: 200, body: { status: 'ready' } });

    control.pingError = new Error('store unreachable');
    expect(await get(service.healthPort, '/readyz')).toEqual({
      status: 503,
      body: { status: 'not ready', reason: 'probe: store unreachable' },
    });
    // Liveness does not follow the store: a restart would not bring it back.
    expect((await get(service.healthPort, '/healthz')).status).toBe(200);
    control.pingError = null;
    expect((await get(service.healthPort, '/readyz')).status).toBe(200);

    expect((await get(service.healthPort, '/nothing-here')).status).toBe(404);
    expect((await fetch(`http://127.0.0.1:${service.healthPort}/readyz`, { method: 'POST' })).status).toBe(405);
    await service.stop();
  });

  it('serves Prometheus /metrics on its health port, with the process\'s own and its bus\'s; 404 with METRICS_ENABLED=false', async () => {
    const { control, starter } = controlledService([]);
    const service = await startServiceAlone(serviceName, starter, { settings, logger });
    running.push(service);
    control.release.open();
    await send('probe.slow', 5000);

    const res = await fetch(`http://127.0.0.1:${service.healthPort}/metrics`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    const samples = parseExposition(await res.text());
    expect(sampleValue(samples, 'process_resident_memory_bytes')).toBeGreaterThan(0);
    // The client bus is in this process too: the round trip it timed is in the same registry.
    expect(sampleValue(samples, 'formcast_bus_command_duration_seconds_count', { command: 'probe.slow', outcome: 'ok' })).toBeGreaterThanOrEqual(1);
    await service.stop();

    const off = await startServiceAlone(serviceName, controlledService([]).starter, { settings: { ...settings, METRICS_ENABLED: false }, logger });
    running.push(off);
    try {
      expect((await fetch(`http://127.0.0.1:${off.healthPort}/metrics`)).status).toBe(404);
    } finally {
      await off.stop();
      configureMetrics({ enabled: true });
    }
  });

  it('on stop: not ready at once, stops consuming, finishes the command in flight, then closes its stores', async () => {
    const events: string[] = [];
    const { control, starter } = controlledService(events);
    const service = await startServiceAlone(serviceName, starter, { settings, logger });
    running.push(service);
    const { healthPort } = service;

    const inFlight = send('probe.slow', 15000);
    await control.started.opened;
    const stopped = service.stop().then(() => events.push('stop resolved'));

    await waitFor(async () => (await get(healthPort, '/readyz')).body.reason === 'stopping', { description: 'readiness to say stopping' });
    await waitFor(async () => (await commandQueueState()).consumerCount === 0, { description: 'the command queue to lose its consumer' });
    // Sent while stopping: nobody consumes it any more, so the caller times out (never a half-done command).
    const late = await send('probe.slow', 1000).then(
      () => 'answered',
      (error: { code?: string }) => error.code,
    );
    expect(late).toBe('timeout');
    expect(events).toEqual(['handler started']);

    control.release.open();
    await expect(inFlight).resolves.toEqual({ done: true });
    await stopped;
    expect(events).toEqual(['handler started', 'handler finished', 'service stopped', 'stop resolved']);
    await expect(fetch(`http://127.0.0.1:${healthPort}/healthz`)).rejects.toThrow();
  });

  it('takes at most `prefetch` commands at once', async () => {
    const events: string[] = [];
    const { control, starter } = controlledService(events);
    const service = await startServiceAlone(serviceName, starter, { settings, logger, prefetch: 2 });
    running.push(service);

    const answers = [send('probe.slow', 15000), send('probe.slow', 15000), send('probe.slow', 15000)];
    await waitFor(() => events.length === 2, { description: 'two commands in the handler' });
    // The broker holds the third back while two are unacknowledged: it stays in the queue.
    await waitFor(async () => (await commandQueueState()).messageCount === 1, { description: 'the third command to wait in the queue' });
    expect(events).toEqual(['handler started', 'handler started']);

    control.release.open();
    await expect(Promise.all(answers)).resolves.toEqual([{ done: true }, { done: true }, { done: true }]);
    await service.stop();
  });

  it('fails to start with a message naming HEALTH_PORT when the port is taken', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, resolve));
    const port = (blocker.address() as { port: number }).port;
    try {
      const { starter } = controlledService([]);
      await expect(
        startServiceAlone(serviceName, starter, { settings: { ...settings, HEALTH_PORT: port }, logger }),
      ).rejects.toThrow(new RegExp(`^Cannot serve health endpoints on HEALTH_PORT ${port}: .*EADDRINUSE`));
    } finally {
      await new Promise((resolve) => blocker.close(resolve));
    }
  });

  it('reads HEALTH_PORT, AMQP_PREFIX and SHUTDOWN_GRACE_MS from the environment, refusing bad values by name', () => {
    expect(parseSettings({})).toMatchObject({ HEALTH_PORT: 8080, AMQP_PREFIX: 'formcast', SHUTDOWN_GRACE_MS: 25000 });
    expect(parseSettings({ HEALTH_PORT: '0', AMQP_PREFIX: 'e2e_1.a-b', SHUTDOWN_GRACE_MS: '5000' })).toMatchObject({
      HEALTH_PORT: 0,
      AMQP_PREFIX: 'e2e_1.a-b',
      SHUTDOWN_GRACE_MS: 5000,
    });
    expect(() => parseSettings({ HEALTH_PORT: '70000' })).toThrow(/^Invalid setting HEALTH_PORT/);
    expect(() => parseSettings({ AMQP_PREFIX: 'has space' })).toThrow(/^Invalid setting AMQP_PREFIX/);
    expect(() => parseSettings({ SHUTDOWN_GRACE_MS: '10' })).toThrow(/^Invalid setting SHUTDOWN_GRACE_MS/);
  });
});
