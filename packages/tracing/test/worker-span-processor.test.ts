import { join } from 'node:path';
import { inSpan, openSpan, SpanKind, startTracing, tracingOn, type Tracing } from '../src';
import { WorkerSpanProcessor } from '../src/export/worker-span-processor';
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

  it('exports protobuf by default', async () => {
    start({});
    await traceWithChildren(9);
    await tracing!.stop();
    tracing = null;
    expect(receiver.exports.map((e) => e.contentType)).toEqual(['application/x-protobuf']);
    const body = receiver.exports[0]!.body.toString('latin1');
    for (let i = 0; i < 9; i += 1) expect(body).toContain(`child ${i}`);
    expect(body).toContain('GET /things');
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
  it.each([2048, 16384])('exports a full queue of %i spans of 1.5 KB attributes whole, in the worker’s heap', async (queueSize) => {
    start({ OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json', OTEL_BSP_MAX_QUEUE_SIZE: String(queueSize), OTEL_BSP_MAX_EXPORT_BATCH_SIZE: '512', OTEL_BSP_SCHEDULE_DELAY: '60000' });
    const filler = 'x'.repeat(1536);
    const request = openSpan('POST /bulk', SpanKind.SERVER, { remote: undefined })!;
    request.run(() => {
      for (let i = 1; i < queueSize; i += 1) openSpan(`item ${i}`, SpanKind.INTERNAL, undefined, { filler, index: i })!.end();
    });
    request.end();
    await tracing!.stop();
    tracing = null;
    const spans = receiver.jsonSpans();
    expect(spans).toHaveLength(queueSize);
    expect(new Set(spans.map((span) => span.name)).size).toBe(queueSize);
  });

  it('drops the spans beyond OTEL_BSP_MAX_QUEUE_SIZE rather than holding them', async () => {
    start({ OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json', OTEL_BSP_MAX_QUEUE_SIZE: '50', OTEL_BSP_MAX_EXPORT_BATCH_SIZE: '1000' });
    await traceWithChildren(99);
    await tracing!.stop();
    tracing = null;
    expect(receiver.jsonSpans()).toHaveLength(50);
  });
});

describe('a trace export worker that dies', () => {
  it('stops exporting and nothing else: the process carries on, flush and shutdown resolve', async () => {
    const processor = new WorkerSpanProcessor({
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
