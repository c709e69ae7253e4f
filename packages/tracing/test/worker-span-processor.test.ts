import { join } from 'node:path';
import { inSpan, openSpan, SpanKind, startTracing, tracingOn, type Tracing } from '../src';
import { WorkerSpanProcessor } from '../src/export/worker-span-processor';
import { decodeOtlpTraceRequest } from './support/otlp-protobuf';
import { OtlpTestReceiver } from './support/otlp-test-receiver';

/** Spans as the bus and the gateway open them: a request span and `count` children. */
async function traceWithChildren(count: number): Promise<string> {
  const request = openSpan('GET /things', SpanKind.SERVER, { remote: undefined }, { 'http.route': '/things' })!;
  await request.run(async () => {
    for (let i = 0; i < count; i += 1) await inSpan(`child ${i}`, SpanKind.INTERNAL, async () => undefined);
  });
  request.end();
  return request.traceContext()!.traceparent.split('-')[1]!;
}

/** Every span of the protobuf exports received, as protobufjs reads them. */
function protobufSpans(receiver: OtlpTestReceiver): Array<{ name: string }> {
  return receiver.exports.flatMap(({ body }) => decodeOtlpTraceRequest(body).resourceSpans.flatMap((r: any) => r.scopeSpans.flatMap((s: any) => s.spans)));
}

describe('OTLP export from a worker thread', () => {
  let receiver: OtlpTestReceiver;
  let tracing: Tracing | null = null;
  beforeEach(async () => {
    receiver = await OtlpTestReceiver.start();
  });
  afterEach(async () => {
    await tracing?.stop();
    tracing = null;
    await receiver.close();
  });

  const start = (env: NodeJS.ProcessEnv) => {
    tracing = startTracing({ serviceName: 'push', env: { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint, ...env } });
    expect(tracingOn()).toBe(true);
  };

  it('exports every span on stop, in batches of OTEL_BSP_MAX_EXPORT_BATCH_SIZE, as the SDK’s exporter encodes them (http/json)', async () => {
    start({ OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json', OTEL_BSP_MAX_EXPORT_BATCH_SIZE: '100' });
    const traceId = await traceWithChildren(299);
    // Nothing was due yet (5 s schedule delay, 300 spans in batches of 100 exported as they fill: at most the full ones).
    await tracing!.stop();
    tracing = null;

    const spans = receiver.jsonSpans();
    expect(spans).toHaveLength(300);
    expect(receiver.exports).toHaveLength(3);
    expect(new Set(spans.map((span) => span.traceId))).toEqual(new Set([traceId]));
    const request = spans.find((span) => span.name === 'GET /things')!;
    expect(request.parentSpanId ?? '').toBe('');
    expect(request.kind).toBe(2); // SPAN_KIND_SERVER
    expect(request.attributes).toEqual([{ key: 'http.route', value: { stringValue: '/things' } }]);
    expect(spans.filter((span) => span.name.startsWith('child ')).every((span) => span.parentSpanId === request.spanId)).toBe(true);
    expect(request.resource).toMatchObject({ 'service.name': 'push' });
  });

  it('exports protobuf by default: OTLP as protobufjs reads it, span for span what the SDK’s own serializer writes', async () => {
    const { InMemorySpanExporter, SimpleSpanProcessor } = require('@opentelemetry/sdk-trace') as typeof import('@opentelemetry/sdk-trace');
    const { ProtobufTraceSerializer } = require('@opentelemetry/otlp-transformer') as typeof import('@opentelemetry/otlp-transformer');
    const ours = new WorkerSpanProcessor({
      encoding: 'protobuf',
      env: { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint },
      resourceAttributes: { 'service.name': 'push', 'service.version': '0.1.0', 'deployment.environment': 'test' },
      scope: { name: 'formcast' },
      settings: { scheduledDelayMillis: 5000, exportTimeoutMillis: 5000, maxQueueSize: 2048, maxExportBatchSize: 512 },
    });
    const inMemory = new InMemorySpanExporter();
    const theSdks = new SimpleSpanProcessor({ exporter: inMemory });
    tracing = startTracing({
      serviceName: 'push',
      spanProcessor: {
        onStart: () => undefined,
        onEnd: (span) => {
          ours.onEnd(span);
          theSdks.onEnd(span);
        },
        forceFlush: () => Promise.all([ours.forceFlush(), theSdks.forceFlush()]).then(() => undefined),
        shutdown: () => Promise.all([ours.shutdown(), theSdks.shutdown()]).then(() => undefined),
      },
    });
    const traceId = await traceWithChildren(9);
    const remote = { traceparent: `00-${'ab'.repeat(16)}-${'cd'.repeat(8)}-01` };
    const attributes = { text: 'é ✓ '.repeat(50), count: 3, negative: -7, big: 2 ** 40, ratio: 0.25, yes: true, names: ['a', 'b'], numbers: [1, 2.5] };
    openSpan('process created', SpanKind.CONSUMER, { remote }, attributes)!.end({ error: new Error('it failed') });
    await ours.forceFlush();
    const finished = inMemory.getFinishedSpans(); // the in-memory exporter forgets them on shutdown
    await tracing!.stop();
    tracing = null;

    expect(receiver.exports.map((e) => e.contentType)).toEqual(['application/x-protobuf']);
    const received = decodeOtlpTraceRequest(receiver.exports[0]!.body);
    const [resourceSpans] = received.resourceSpans;
    expect(received.resourceSpans).toHaveLength(1);
    expect(resourceSpans.resource.attributes).toEqual([
      { key: 'service.name', value: { stringValue: 'push' } },
      { key: 'service.version', value: { stringValue: '0.1.0' } },
      { key: 'deployment.environment', value: { stringValue: 'test' } },
    ]);
    expect(resourceSpans.scopeSpans).toHaveLength(1);
    expect(resourceSpans.scopeSpans[0].scope.name).toBe('formcast');
    const spans = resourceSpans.scopeSpans[0].spans;
    expect(spans).toHaveLength(11);
    const request = spans.find((span: any) => span.name === 'GET /things');
    expect(request.traceId).toBe(traceId);
    expect(request.kind).toBe(2); // SPAN_KIND_SERVER
    expect(spans.filter((span: any) => span.name.startsWith('child ')).every((span: any) => span.parentSpanId === request.spanId)).toBe(true);
    const consumer = spans.find((span: any) => span.name === 'process created');
    expect(consumer).toMatchObject({ traceId: 'ab'.repeat(16), parentSpanId: 'cd'.repeat(8), kind: 5, flags: 0x301, status: { code: 2, message: 'it failed' } });
    expect(consumer.events.map((event: any) => event.name)).toEqual(['exception']);
    const start = BigInt(consumer.startTimeUnixNano);
    expect(Number(start / 1_000_000n)).toBeGreaterThan(Date.now() - 60_000);
    expect(BigInt(consumer.endTimeUnixNano) >= start).toBe(true);

    // The SDK's serializer, from the same spans, reads the same (its resource carries the SDK's own attributes: not compared).
    const theSdksSpans = decodeOtlpTraceRequest(ProtobufTraceSerializer.serializeRequest(finished)!).resourceSpans[0].scopeSpans[0].spans;
    expect(spans).toEqual(theSdksSpans);
  });

  it('exports without a flush once OTEL_BSP_SCHEDULE_DELAY has passed', async () => {
    start({ OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json', OTEL_BSP_SCHEDULE_DELAY: '50' });
    await traceWithChildren(4);
    const deadline = Date.now() + 5000;
    while (receiver.jsonSpans().length < 5 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(receiver.jsonSpans()).toHaveLength(5);
  });

  // The worker's heap is sized by the queue (workerHeapLimits): a full queue of large spans
  // must fit, or the worker dies of it and export stops.
  it.each([
    [2048, 'http/json'],
    [16384, 'http/json'],
    [16384, 'http/protobuf'],
  ])('exports a full queue of %i spans of 1.5 KB attributes whole, in the worker’s heap (%s)', async (queueSize, protocol) => {
    start({ OTEL_EXPORTER_OTLP_PROTOCOL: protocol, OTEL_BSP_MAX_QUEUE_SIZE: String(queueSize), OTEL_BSP_MAX_EXPORT_BATCH_SIZE: '512', OTEL_BSP_SCHEDULE_DELAY: '60000' });
    const filler = 'x'.repeat(1536);
    const request = openSpan('POST /bulk', SpanKind.SERVER, { remote: undefined })!;
    request.run(() => {
      for (let i = 1; i < queueSize; i += 1) openSpan(`item ${i}`, SpanKind.INTERNAL, undefined, { filler, index: i })!.end();
    });
    request.end();
    await tracing!.stop();
    tracing = null;
    const spans: Array<{ name: string }> = protocol === 'http/json' ? receiver.jsonSpans() : protobufSpans(receiver);
    expect(spans).toHaveLength(queueSize);
    expect(new Set(spans.map((span) => span.name)).size).toBe(queueSize);
  });

  it.each(['http/json', 'http/protobuf'])('drops the spans beyond OTEL_BSP_MAX_QUEUE_SIZE rather than holding them (%s)', async (protocol) => {
    start({ OTEL_EXPORTER_OTLP_PROTOCOL: protocol, OTEL_BSP_MAX_QUEUE_SIZE: '50', OTEL_BSP_MAX_EXPORT_BATCH_SIZE: '1000' });
    await traceWithChildren(99);
    await tracing!.stop();
    tracing = null;
    expect(protocol === 'http/json' ? receiver.jsonSpans() : protobufSpans(receiver)).toHaveLength(50);
  });
});

describe('a trace export worker left without spans', () => {
  let receiver: OtlpTestReceiver;
  beforeEach(async () => {
    receiver = await OtlpTestReceiver.start();
  });
  afterEach(async () => {
    await receiver.close();
  });

  it('starts with the first spans, exports what it holds and ends after idleMs, and a new one takes the next spans', async () => {
    const processor = new WorkerSpanProcessor({
      encoding: 'protobuf',
      env: { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint },
      resourceAttributes: { 'service.name': 'push' },
      scope: { name: 'formcast' },
      // No scheduled export before the idle end: only its flush can send the spans.
      settings: { scheduledDelayMillis: 60_000, exportTimeoutMillis: 5000, maxQueueSize: 2048, maxExportBatchSize: 512 },
      idleMs: 300,
    });
    const tracing = startTracing({ serviceName: 'push', spanProcessor: processor })!;
    try {
      expect(processor.workerRunning).toBe(false);
      await traceWithChildren(10);
      // Handed over within postDelayMs (200 ms): the worker starts then.
      const started = Date.now() + 5000;
      while (!processor.workerRunning && Date.now() < started) await new Promise((resolve) => setTimeout(resolve, 20));
      expect(processor.workerRunning).toBe(true);
      const ended = Date.now() + 10_000;
      while (processor.workerRunning && Date.now() < ended) await new Promise((resolve) => setTimeout(resolve, 50));
      expect(processor.workerRunning).toBe(false);
      expect(protobufSpans(receiver)).toHaveLength(11);

      await traceWithChildren(4);
      await processor.forceFlush();
      expect(protobufSpans(receiver)).toHaveLength(16);
      expect(processor.workerRunning).toBe(true);
    } finally {
      await tracing.stop();
    }
    expect(processor.workerRunning).toBe(false);
  });
});

describe('a trace export worker that dies', () => {
  it('stops exporting and nothing else: the process carries on, flush and shutdown resolve', async () => {
    const processor = new WorkerSpanProcessor({
      encoding: 'json',
      exporterModule: join(__dirname, 'fixtures/crashing-otlp-exporter.js'),
      env: {},
      resourceAttributes: {},
      scope: { name: 'formcast' },
      settings: { scheduledDelayMillis: 10, exportTimeoutMillis: 1000, maxQueueSize: 100, maxExportBatchSize: 10 },
    });
    const failures: string[] = [];
    const write = jest.spyOn(process.stderr, 'write').mockImplementation((line) => {
      failures.push(String(line));
      return true;
    });
    const tracing = startTracing({ serviceName: 'push', spanProcessor: processor })!;
    try {
      await traceWithChildren(20);
      await processor.forceFlush();
      const deadline = Date.now() + 5000;
      while (failures.length === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
      expect(failures.join('')).toMatch(/the trace export worker failed: the exporter crashed; traces are no longer exported/);
      // Spans still end, quietly.
      await traceWithChildren(3);
      await processor.forceFlush();
    } finally {
      await tracing.stop();
      write.mockRestore();
    }
    expect(tracingOn()).toBe(false);
  });
});
