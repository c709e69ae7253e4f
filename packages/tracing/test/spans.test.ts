import { activeTraceContext, inSpan, openSpan, recordSpansInMemory, SpanKind, type SpansInMemory } from '../src';

describe('trace context across a boundary', () => {
  let recorded: SpansInMemory;
  beforeAll(() => {
    recorded = recordSpansInMemory('context-test');
  });
  afterAll(() => recorded.stop());

  it('writes the traceparent the W3C propagator writes, and a span opened from it is its child', () => {
    const sender = openSpan('send', SpanKind.CLIENT, { remote: undefined })!;
    const carried = sender.traceContext()!;
    const { propagation, trace, ROOT_CONTEXT } = require('@opentelemetry/api') as typeof import('@opentelemetry/api');
    const byPropagator: Record<string, string> = {};
    propagation.inject(trace.setSpan(ROOT_CONTEXT, (sender as unknown as { span: import('@opentelemetry/api').Span }).span), byPropagator);
    expect(carried).toEqual(byPropagator);
    const receiver = openSpan('receive', SpanKind.SERVER, { remote: carried })!;
    receiver.end();
    sender.end();
    const received = recorded.spans().find((span) => span.name === 'receive')!;
    expect(received.parentSpanContext).toMatchObject({ spanId: carried.traceparent.split('-')[2], isRemote: true });
    expect(received.spanContext().traceId).toBe(carried.traceparent.split('-')[1]);
  });

  it.each([
    ['a tracestate', { traceparent: '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01', tracestate: 'vendor=x' }, '4bf92f3577b34da6a3ce929d0e0e4736'],
    ['a later version', { traceparent: '01-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-extra' }, '4bf92f3577b34da6a3ce929d0e0e4736'],
    ['upper-case hex (not W3C)', { traceparent: '00-4BF92F3577B34DA6A3CE929D0E0E4736-00F067AA0BA902B7-01' }, undefined],
    ['an all-zero trace id', { traceparent: '00-00000000000000000000000000000000-00f067aa0ba902b7-01' }, undefined],
  ])('reads a context with %s as the W3C propagator does', (_what, carried, traceId) => {
    const span = openSpan('receive', SpanKind.SERVER, { remote: carried })!;
    const own = span.traceContext()!;
    span.end();
    if (traceId) expect(own.traceparent.split('-')[1]).toBe(traceId);
    else expect(own.traceparent.split('-')[1]).not.toBe(carried.traceparent.split('-')[1]!.toLowerCase());
    if ('tracestate' in carried) expect(own.tracestate).toBe(carried.tracestate);
  });
});

describe('inSpan', () => {
  let recorded: SpansInMemory;
  beforeAll(() => {
    recorded = recordSpansInMemory('in-span-test');
  });
  afterAll(() => recorded.stop());

  it('turns work that throws before its promise into a rejection, and marks the span', async () => {
    const running = inSpan('sync throw', SpanKind.INTERNAL, () => {
      throw new Error('at once');
    });
    await expect(running).rejects.toThrow('at once');
    expect(recorded.spans().find((span) => span.name === 'sync throw')?.status).toMatchObject({ code: 2, message: 'at once' });
  });

  it('ends the span when the work settles, with the work’s value', async () => {
    await expect(inSpan('later', SpanKind.INTERNAL, async () => 42)).resolves.toBe(42);
    expect(recorded.spans().some((span) => span.name === 'later')).toBe(true);
  });
});
