import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createEnvelope } from '@formcast/contracts';
import { createLogger, parseSettings, type RunningService, type ServiceStarter } from '@formcast/platform';
import { AmqpBus } from '../src/amqp-bus';
import { topologyFor } from '../src/amqp/topology';
import type { Bus } from '../src/port';
import { startServiceAlone, type ServiceAlone } from '../src/run-service-alone';
import { brokerUrl, deleteExchanges, describeWithBroker as describeWithBrokerFor, deleteQueues, queuesOf, withOwnChannel } from './broker-admin';
import { uniqueName } from './unique-name';
import { gate, waitFor } from './wait-for';

const url = brokerUrl;
const describeWithBroker = describeWithBrokerFor('runServiceAlone');

const logger = createLogger({ level: 'silent' });
const serviceName = 'probe';

async function get(port: number, path: string): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(`http://127.0.0.1:${port}${path}`);
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

/** A service whose readiness and one slow command the test controls, recording what happened when. */
function controlledService(events: string[]) {
  const control = { pingError: null as Error | null, release: gate(), started: gate() };
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

describeWithBroker('a service running alone: health endpoints and graceful stop', () => {
  const prefix = uniqueName('alone').replace(/-/g, '_');
  const dataDir = mkdtempSync(join(tmpdir(), 'formcast-alone-'));
  const settings = parseSettings({ AMQP_URL: url, AMQP_PREFIX: prefix, HEALTH_PORT: '0', DATA_DIR: dataDir, });
  const client = new AmqpBus({ url, logger, prefix, connectionName: 'alone-test-client' });
  const running: ServiceAlone[] = [];

  beforeAll(() => client.start());
  afterAll(async () => {
    await Promise.all(running.map((service) => service.stop()));
    await client.close();
    await deleteQueues(url, queuesOf(serviceName, topologyFor(prefix)));
    await deleteExchanges(url, topologyFor(prefix));
    rmSync(dataDir, { recursive: true, force: true });
  });

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

    expect((await get(service.healthPort, '/metrics')).status).toBe(404);
    expect((await fetch(`http://127.0.0.1:${service.healthPort}/readyz`, { method: 'POST' })).status).toBe(405);
    await service.stop();
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

    await waitFor(async () => (await get(healthPort, '/readyz')).body.reason === 'stopping', { what: 'readiness to say stopping' });
    const commandQueue = topologyFor(prefix).commandQueue(serviceName);
    await waitFor(async () => (await withOwnChannel(url, (channel) => channel.checkQueue(commandQueue))).consumerCount === 0, {
      what: 'the command queue to lose its consumer',
    });
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
    await waitFor(() => events.length === 2, { what: 'two commands in the handler' });
    await new Promise((resolve) => setTimeout(resolve, 300));
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
