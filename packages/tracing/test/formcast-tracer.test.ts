import { activeTraceContext, openSpan, recordSpansInMemory, SpanKind } from '../src';

/** Spans recorded while `env` is set: the tracer reads OTEL_* as tracing starts, as the SDK's provider did. */
async function spansWith(env: Record<string, string>, open: () => void) {
  const saved = { ...process.env };
  Object.assign(process.env, env);
  const recorded = recordSpansInMemory('tracer-test');
  try {
    open();
    return recorded.spans();
  } finally {
    await recorded.stop();
    process.env = saved;
  }
}

describe('Formcast’s tracer, in place of the SDK’s', () => {
  it('records a span as the SDK did: ids, parent, kind, attributes, status and the exception event of an error', async () => {
    const [child, parent] = await spansWith({}, () => {
      const request = openSpan('POST /things', SpanKind.SERVER, { remote: undefined }, { 'http.route': '/things' })!;
      request.run(() => openSpan('write thing', SpanKind.INTERNAL, undefined, { rows: 2, skipped: undefined as unknown as string })!.end({ error: new TypeError('no room') }));
      request.end({ name: 'POST /things/:id', attributes: { 'http.response.status_code': 500 } });
    });
    expect(parent!.name).toBe('POST /things/:id');
    expect(parent!.spanContext().traceId).toMatch(/^[0-9a-f]{32}$/);
    expect(parent!.spanContext().spanId).toMatch(/^[0-9a-f]{16}$/);
    expect(parent!.parentSpanContext).toBeUndefined();
    expect(parent!.attributes).toEqual({ 'http.route': '/things', 'http.response.status_code': 500 });
    expect(child!.parentSpanContext).toMatchObject({ spanId: parent!.spanContext().spanId, traceId: parent!.spanContext().traceId });
    expect(child!.spanContext().traceId).toBe(parent!.spanContext().traceId);
    expect(child!.kind).toBe(SpanKind.INTERNAL);
    expect(child!.attributes).toEqual({ rows: 2 });
    expect(child!.status).toEqual({ code: 2, message: 'no room' });
    expect(child!.events).toHaveLength(1);
    expect(child!.events[0]!.attributes).toMatchObject({ 'exception.type': 'TypeError', 'exception.message': 'no room' });
    const [seconds, nanos] = child!.startTime;
    expect(Math.abs(seconds * 1000 + nanos / 1e6 - Date.now())).toBeLessThan(60_000);
    expect(child!.duration[0] >= 0 && child!.duration[1] >= 0).toBe(true);
  });

  it('gives every span an id of its own', async () => {
    const spans = await spansWith({}, () => {
      for (let i = 0; i < 2000; i += 1) openSpan('one', SpanKind.INTERNAL, { remote: undefined })!.end();
    });
    expect(new Set(spans.map((span) => span.spanContext().spanId)).size).toBe(2000);
    expect(new Set(spans.map((span) => span.spanContext().traceId)).size).toBe(2000);
  });

  it('samples as OTEL_TRACES_SAMPLER says: nothing recorded, the context still carried, unsampled', async () => {
    let carried: string | undefined;
    const spans = await spansWith({ OTEL_TRACES_SAMPLER: 'traceidratio', OTEL_TRACES_SAMPLER_ARG: '0' }, () => {
      const span = openSpan('not sampled', SpanKind.SERVER, { remote: undefined })!;
      span.run(() => (carried = activeTraceContext()?.traceparent));
      span.end();
    });
    expect(spans).toEqual([]);
    expect(carried).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-00$/);
  });

  it('follows a remote parent’s sampling decision by default (parent-based)', async () => {
    const spans = await spansWith({}, () => {
      openSpan('unsampled parent', SpanKind.CONSUMER, { remote: { traceparent: `00-${'ab'.repeat(16)}-${'cd'.repeat(8)}-00` } })!.end();
      openSpan('sampled parent', SpanKind.CONSUMER, { remote: { traceparent: `00-${'ab'.repeat(16)}-${'cd'.repeat(8)}-01` } })!.end();
    });
    expect(spans.map((span) => span.name)).toEqual(['sampled parent']);
  });

  it('keeps OTEL_SPAN_ATTRIBUTE_COUNT_LIMIT and OTEL_ATTRIBUTE_VALUE_LENGTH_LIMIT', async () => {
    const [span] = await spansWith({ OTEL_SPAN_ATTRIBUTE_COUNT_LIMIT: '2', OTEL_ATTRIBUTE_VALUE_LENGTH_LIMIT: '3' }, () => {
      openSpan('limited', SpanKind.INTERNAL, { remote: undefined }, { a: 'abcdef', b: ['xyzw', 'q'], c: 'dropped' })!.end();
    });
    expect(span!.attributes).toEqual({ a: 'abc', b: ['xyz', 'q'] });
    expect(span!.droppedAttributesCount).toBe(1);
  });

  it('serves a library that uses the global API: startActiveSpan, and startSpan without a context', async () => {
    const { trace } = require('@opentelemetry/api') as typeof import('@opentelemetry/api');
    const spans = await spansWith({}, () => {
      const tracer = trace.getTracer('a-library');
      tracer.startActiveSpan('outer', (outer) => {
        tracer.startSpan('inner').end();
        outer.end();
      });
    });
    const [inner, outer] = spans;
    expect(spans.map((span) => span.name)).toEqual(['inner', 'outer']);
    expect(inner!.parentSpanContext?.spanId).toBe(outer!.spanContext().spanId);
  });
});
