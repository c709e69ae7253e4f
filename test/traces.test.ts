import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import type { Bus } from '@formcast/bus';
import { startDirectoryService } from '@formcast/directory';
import { FirebaseNotificationSender, startNotifier } from '@formcast/notifier';
import type { ServiceStarter } from '@formcast/platform';
import { startPushService } from '@formcast/push';
import { uniqueName, waitFor } from '@formcast/testing';
import { recordSpansInMemory, SpanKind, type ReadableSpan, type SpansInMemory } from '@formcast/tracing';
import { FcmStandIn, fixedTokenCredential } from './support/fcm-stand-in';
import { pushJson } from './support/push-fixtures';
import { ensureBuilt } from './support/start-distributed';
import type { SystemMode } from './support/start-system';
import { useSystem } from './support/use-system';

/**
 * One trace from the HTTP request to the FCM send: the gateway's request span, the command's
 * client and server spans, push's store write, the outbox relay's publish (however much
 * later), the notifier's consumer span and its send. The in-memory exporter sees every
 * span because, in these modes, every peer runs in the test process (the `rabbitmq` mode
 * over the real broker, each service on its own AMQP connection); distributed processes
 * export over OTLP instead (bench S1T/S2T).
 */
const modes: SystemMode[] = ['rabbitmq', 'embedded'];

describe.each(modes)('Traces follow a push from the HTTP request to the FCM send (%s)', (mode) => {
  let standIn: FcmStandIn;
  let recorded: SpansInMemory;
  const notifierWithStandIn: ServiceStarter<Bus> = (context) =>
    startNotifier(context, {
      sender: new FirebaseNotificationSender({ credential: fixedTokenCredential(), projectId: standIn.projectId, httpAgent: standIn.agent() }),
    });

  // Before the system starts: the gateway registers its request spans only while tracing is on.
  beforeAll(async () => {
    recorded = recordSpansInMemory('formcast-e2e');
    standIn = await FcmStandIn.start();
  });
  const sys = useSystem(mode, {
    starters: [startDirectoryService, startPushService, notifierWithStandIn],
    organizations: 1,
    template: { type: 'root', title: 'Inspection', children: [{ identifier: 'site', type: 'text' }] },
  });
  // After the system has stopped (afterAll hooks run in the order they are declared).
  afterAll(async () => {
    await standIn?.close();
    await recorded?.stop();
  });

  async function enroll(pushToken: string) {
    const identifier = uniqueName('Android_trace').replace(/[^A-Za-z0-9_.:-]/g, '');
    const res = await sys.api.post('/devices/enroll', { json: { enrollment_code: sys.org.enrollmentCode, identifier, push_token: pushToken } });
    const { device } = res.json();
    await sys.api.post(`/organizations/${sys.org.orgId}/devices/${device.id}/approve`, { token: sys.org.token });
    return identifier;
  }

  function only(spans: ReadableSpan[], name: string): ReadableSpan {
    const found = spans.filter((span) => span.name === name);
    if (found.length !== 1) throw new Error(`${found.length} spans named ${name} in the trace: ${spans.map((s) => s.name).join(', ')}`);
    return found[0]!;
  }

  it('links the gateway, the push handler, its store write, the outbox publish, the notifier and the send in one trace', async () => {
    const token = `fcm-${uniqueName('tok')}`;
    const device = await enroll(token);
    const res = await pushJson(sys.api, sys.org, device, { form_namespace: sys.template.namespace, form_name: 'Traced visit', payload: {} });
    expect(res.status).toBe(202);
    await waitFor(() => standIn.messagesTo(token).length === 1, { timeoutMs: 10000 });

    const request = () => recorded.spans().find((span) => span.name === 'POST /clients/:deviceRef/oneshots');
    await waitFor(() => request() !== undefined);
    const traceId = request()!.spanContext().traceId;
    const inTrace = () => recorded.spans().filter((span) => span.spanContext().traceId === traceId);
    // The send span ends once FCM answered, after the message reached the stand-in.
    await waitFor(() => inTrace().some((span) => span.name === 'fcm send'), { timeoutMs: 10000 });
    const spans = inTrace();

    const gateway = request()!;
    const client = only(spans, 'send push.oneshot.create');
    const handler = only(spans, 'handle push.oneshot.create');
    const store = only(spans, 'push.store create');
    const publish = only(spans, 'publish push.oneshot.created');
    const notifier = only(spans, 'process push.oneshot.created');
    const send = only(spans, 'fcm send');
    const chain = [gateway, client, handler, store, publish, notifier, send];
    expect(chain.map((span) => span.kind)).toEqual([
      SpanKind.SERVER,
      SpanKind.CLIENT,
      SpanKind.SERVER,
      SpanKind.INTERNAL,
      SpanKind.PRODUCER,
      SpanKind.CONSUMER,
      SpanKind.CLIENT,
    ]);
    expect(gateway.parentSpanContext).toBeUndefined();
    chain.slice(1).forEach((span, index) => {
      expect({ span: span.name, parent: span.parentSpanContext?.spanId }).toEqual({ span: span.name, parent: chain[index]!.spanContext().spanId });
    });
    expect(gateway.attributes).toMatchObject({ 'http.route': '/clients/:deviceRef/oneshots', 'http.response.status_code': 202 });
    expect(handler.attributes).toMatchObject({ 'formcast.service': 'push' });
    expect(notifier.attributes).toMatchObject({ 'formcast.service': 'notifier' });
    expect(send.attributes).toMatchObject({ 'formcast.fcm.outcome': 'sent' });
    // Every span of the request's trace hangs off the request: nothing else joined it.
    const ids = new Set(spans.map((span) => span.spanContext().spanId));
    for (const span of spans) if (span !== gateway) expect(ids.has(span.parentSpanContext!.spanId)).toBe(true);
  });
});

describe('Tracing off (no OTEL_* set)', () => {
  const repoRoot = join(__dirname, '..');
  beforeAll(() => ensureBuilt(), 300_000);

  /** The modules a process made of every package loads, and whether it put a trace context on a command. */
  function loadedIn(env: NodeJS.ProcessEnv): { sdkModules: string[]; tracing: boolean } {
    const script = `
      require(${JSON.stringify(join(repoRoot, 'services/embedded/dist/index.js'))});
      const { startTracingOrExit, tracingOn } = require(${JSON.stringify(join(repoRoot, 'packages/tracing/dist/index.js'))});
      startTracingOrExit('formcast');
      const sdkModules = Object.keys(require.cache).filter((file) => /@opentelemetry[\\\\/](sdk-|context-async-hooks|exporter-|otlp-|resources|core)/.test(file));
      process.stdout.write(JSON.stringify({ sdkModules, tracing: tracingOn() }));
    `;
    const clean = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('OTEL_')));
    const child = spawnSync(process.execPath, ['-e', script], { env: { ...clean, ...env }, encoding: 'utf8', timeout: 60_000 });
    if (child.status !== 0) throw new Error(`the child process failed: ${child.stderr}`);
    return JSON.parse(child.stdout);
  }

  it('loads no SDK module into a process of every package', () => {
    expect(loadedIn({})).toEqual({ sdkModules: [], tracing: false });
  });

  it('loads the SDK once OTEL_* asks for traces (the check above can fail)', () => {
    const on = loadedIn({ OTEL_TRACES_EXPORTER: 'console' });
    expect(on.tracing).toBe(true);
    expect(on.sdkModules.some((file) => file.includes('sdk-trace-base'))).toBe(true);
  });
});
