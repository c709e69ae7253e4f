import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { Bus } from '@formcast/bus';
import { startDeliveryService } from '@formcast/delivery';
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
 * client and server spans (in process, the server span alone: the same moment in the same
 * process), push's store write, the outbox relay's publish (however much later; in process
 * no producer span, the publish being a move into memory), the consumer's span and the
 * notifier's send. Revocations and submissions too: every event a
 * request's handler writes carries that request's context. The in-memory exporter sees
 * every span because, in these modes, every peer runs in the test process (the `rabbitmq`
 * mode over the real broker, each service on its own AMQP connection); distributed
 * processes export over OTLP instead (bench S1T/S2T).
 */
const modes: SystemMode[] = ['rabbitmq', 'embedded'];

describe.each(modes)('Traces follow a request from the gateway to the event’s consumer (%s)', (mode) => {
  let standIn: FcmStandIn;
  let recorded: SpansInMemory;
  const notifierWithStandIn: ServiceStarter<Bus> = (context) =>
    startNotifier(context, {
      sender: new FirebaseNotificationSender({ credential: fixedTokenCredential(), projectId: standIn.projectId, httpAgent: standIn.agent() }),
    });
  /** The command's spans, in the order of the chain: in process, the server span alone. */
  const commandSpans = (command: string) => (mode === 'embedded' ? [`handle ${command}`] : [`send ${command}`, `handle ${command}`]);
  const commandKinds = mode === 'embedded' ? [SpanKind.SERVER] : [SpanKind.CLIENT, SpanKind.SERVER];
  /** An event's spans, in the order of the chain: in process, the consumer span alone. */
  const eventSpans = (event: string) => (mode === 'embedded' ? [`process ${event}`] : [`publish ${event}`, `process ${event}`]);
  const eventKinds = mode === 'embedded' ? [SpanKind.CONSUMER] : [SpanKind.PRODUCER, SpanKind.CONSUMER];

  // Before the system starts: the gateway registers its request spans only while tracing is on.
  beforeAll(async () => {
    recorded = recordSpansInMemory('formcast-e2e');
    standIn = await FcmStandIn.start();
  });
  const sys = useSystem(mode, {
    starters: [startDirectoryService, startPushService, notifierWithStandIn, startDeliveryService],
    env: { PUSH_RELEASE_INTERVAL_MS: '200' },
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
    const { device, device_secret: secret } = res.json();
    await sys.api.post(`/organizations/${sys.org.orgId}/devices/${device.id}/approve`, { token: sys.org.token });
    return { identifier, secret: secret as string };
  }

  async function push(device: string) {
    const res = await pushJson(sys.api, sys.org, device, { form_namespace: sys.template.namespace, form_name: 'Traced visit', payload: {} });
    expect(res.status).toBe(202);
    return res.json().oneshot_list[0].id as number;
  }

  function only(spans: ReadableSpan[], name: string): ReadableSpan {
    const found = spans.filter((span) => span.name === name);
    if (found.length !== 1) throw new Error(`${found.length} spans named ${name} in the trace: ${spans.map((s) => s.name).join(', ')}`);
    return found[0]!;
  }

  /**
   * The trace of the request named `request` (method and route template), once it holds every span
   * of `chain`: each span of `chain` the child of the one before, every span of the trace a
   * descendant of the request (nothing else joined it).
   */
  async function traceOf(request: string | RegExp, chain: string[]): Promise<ReadableSpan[]> {
    const named = (span: ReadableSpan) => (typeof request === 'string' ? span.name === request : request.test(span.name));
    const gateway = await waitFor(() => recorded.spans().find(named), {
      description: `the span ${request} (${recorded.spans().map((span) => span.name).join(', ')})`,
    });
    const traceId = gateway.spanContext().traceId;
    const inTrace = () => recorded.spans().filter((span) => span.spanContext().traceId === traceId);
    // Every span of the chain, not only the last: spans end in any order (an outbox publish's
    // ends at the broker's confirm, which can come after the consumer's send has ended).
    await waitFor(() => chain.every((name) => inTrace().some((span) => span.name === name)), {
      timeoutMs: 10000,
      description: `${chain.join(', ')} in the trace (${inTrace().map((span) => span.name).join(', ')})`,
    });
    const spans = inTrace();
    const linked = [gateway, ...chain.map((name) => only(spans, name))];
    expect(gateway.parentSpanContext).toBeUndefined();
    linked.slice(1).forEach((span, index) => {
      expect({ span: span.name, parent: span.parentSpanContext?.spanId }).toEqual({ span: span.name, parent: linked[index]!.spanContext().spanId });
    });
    const ids = new Set(spans.map((span) => span.spanContext().spanId));
    for (const span of spans) if (span !== gateway) expect(ids.has(span.parentSpanContext!.spanId)).toBe(true);
    return linked;
  }

  it('links the gateway, the push handler, its store write, the outbox publish, the notifier and the send in one trace', async () => {
    const token = `fcm-${uniqueName('tok')}`;
    const { identifier } = await enroll(token);
    recorded.reset();
    await push(identifier);
    await waitFor(() => standIn.messagesTo(token).length === 1, { timeoutMs: 10000 });

    // The send span ends once FCM answered, after the message reached the stand-in.
    const chain = await traceOf('POST /clients/:deviceRef/oneshots', [
      ...commandSpans('push.oneshot.create'),
      'push.store create',
      ...eventSpans('push.oneshot.created'),
      'fcm send',
    ]);
    expect(chain.map((span) => span.kind)).toEqual([
      SpanKind.SERVER,
      ...commandKinds,
      SpanKind.INTERNAL,
      ...eventKinds,
      SpanKind.CLIENT,
    ]);
    const [gateway] = chain;
    expect(gateway!.attributes).toMatchObject({ 'http.route': '/clients/:deviceRef/oneshots', 'http.response.status_code': 202 });
    expect(only(chain, 'handle push.oneshot.create').attributes).toMatchObject({ 'formcast.service': 'push' });
    expect(only(chain, 'process push.oneshot.created').attributes).toMatchObject({ 'formcast.service': 'notifier' });
    expect(only(chain, 'fcm send').attributes).toMatchObject({ 'formcast.fcm.outcome': 'sent' });
  });

  it('follows a revocation from the DELETE to the notifier that takes the badge down, in one trace', async () => {
    const token = `fcm-${uniqueName('tok')}`;
    const { identifier } = await enroll(token);
    const oneshotId = await push(identifier);
    await waitFor(() => standIn.messagesTo(token).length === 1, { timeoutMs: 10000 });
    recorded.reset();

    const res = await sys.api.delete(`/clients/${identifier}/oneshots/${oneshotId}`, { token: sys.org.token });
    expect(res.status).toBeLessThan(300);
    const chain = await traceOf(/^DELETE \/clients\/:deviceRef\/oneshots\/:oneshotId/, [
      ...commandSpans('push.oneshot.revoke'),
      'push.store revoke',
      ...eventSpans('push.oneshot.revoked'),
    ]);
    expect(only(chain, 'process push.oneshot.revoked').attributes).toMatchObject({ 'formcast.service': 'notifier' });
  });

  it('starts a trace at a scheduled dispatch’s release, running to the notifier’s send', async () => {
    const token = `fcm-${uniqueName('tok')}`;
    const { identifier } = await enroll(token);
    const scheduledAt = new Date(Date.now() + 1500).toISOString();
    const res = await pushJson(sys.api, sys.org, identifier, { form_namespace: sys.template.namespace, form_name: 'Later visit', payload: {}, scheduled_at: scheduledAt });
    expect(res.status).toBe(202);
    recorded.reset();
    await waitFor(() => standIn.messagesTo(token).length === 1, { timeoutMs: 15000 });

    const chain = await traceOf('push.release', ['push.store release', ...eventSpans('push.oneshot.created'), 'fcm send']);
    expect(chain[0]!.attributes).toMatchObject({ 'formcast.release.due': 1 });
  });

  it('follows a device’s submission to both its events’ consumers (the notifier and delivery), in one trace', async () => {
    const token = `fcm-${uniqueName('tok')}`;
    const { identifier, secret } = await enroll(token);
    const oneshotId = await push(identifier);
    await waitFor(() => standIn.messagesTo(token).length === 1, { timeoutMs: 10000 });
    recorded.reset();

    const res = await sys.api.post(`/device/oneshots/${oneshotId}/submission`, { bearer: secret, json: { answers: { site: { value: 'North gate' } } } });
    expect(res.status).toBe(201);
    const request = 'POST /device/oneshots/:oneshotId/submission';
    const toStore = [...commandSpans('push.device.submit_oneshot'), 'push.store submit'];
    const completed = await traceOf(request, [...toStore, ...eventSpans('push.oneshot.completed')]);
    const received = await traceOf(request, [...toStore, ...eventSpans('push.submission.received')]);
    expect(completed[0]!.spanContext().traceId).toBe(received[0]!.spanContext().traceId);
    expect(only(received, 'process push.submission.received').attributes).toMatchObject({ 'formcast.service': 'delivery' });
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
    expect(on.sdkModules.some((file) => file.includes('/@opentelemetry/sdk-trace/'))).toBe(true);
  });
});

describe('A process exporting over OTLP (npm start’s, from dist)', () => {
  const repoRoot = join(__dirname, '..');
  beforeAll(() => ensureBuilt(), 300_000);

  it('exports the spans it ended before a graceful stop, from its export worker, however long the batch delay', async () => {
    const exports: Array<{ resourceSpans: Array<{ resource: { attributes: Array<{ key: string; value: { stringValue?: string } }> }; scopeSpans: Array<{ spans: Array<{ name: string }> }> }> }> = [];
    const receiver = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
      req.on('end', () => {
        exports.push(JSON.parse(body));
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const dataDir = mkdtempSync(join(tmpdir(), 'formcast-otlp-e2e-'));
    const adminToken = `admin-${uniqueName('otlp')}`;
    const child = spawn(process.execPath, [join(repoRoot, 'services/embedded/dist/main.js')], {
      env: {
        PATH: process.env.PATH ?? '',
        PORT: '0',
        DATA_DIR: dataDir,
        ADMIN_TOKEN: adminToken,
        LOG_LEVEL: 'silent',
        OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`,
        OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
        // Nothing is due before the stop: only the flush on stop can export these spans.
        OTEL_BSP_SCHEDULE_DELAY: '600000',
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    try {
      let base: string | undefined;
      createInterface({ input: child.stdout! }).on('line', (line) => {
        base ??= /^Formcast is serving (http:\/\/localhost:\d+)$/.exec(line)?.[1];
      });
      await waitFor(() => base, { timeoutMs: 60_000, description: 'the process to print its address' });
      const res = await fetch(`${base}/admin/organizations`, { headers: { authorization: `Bearer ${adminToken}` } });
      expect(res.status).toBe(200);
      expect(exports).toEqual([]);

      const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
      const names = exports.flatMap((e) => e.resourceSpans.flatMap((r) => r.scopeSpans.flatMap((scope) => scope.spans.map((span) => span.name))));
      expect(names).toEqual(expect.arrayContaining(['GET /admin/organizations']));
      const serviceNames = exports.flatMap((e) => e.resourceSpans.flatMap((r) => r.resource.attributes.filter((a) => a.key === 'service.name').map((a) => a.value.stringValue)));
      expect(new Set(serviceNames)).toEqual(new Set(['formcast']));
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
      await new Promise((resolve) => receiver.close(resolve));
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 90_000);
});
