import { EventEmitter } from 'node:events';
import { activeTraceContext, openSpan, recordSpansInMemory, SpanKind, type SpansInMemory } from '../src';

describe('OpenSpan.bind', () => {
  let recorded: SpansInMemory;
  beforeAll(() => {
    recorded = recordSpansInMemory('bind-test');
  });
  afterAll(() => recorded.stop());

  function emitterEmittingOutsideTheSpan() {
    const emitter = new EventEmitter();
    const span = openSpan('request', SpanKind.SERVER, { remote: undefined })!;
    return { emitter, span, spanContext: span.traceContext()! };
  }

  it('runs listeners added before and after binding, and once listeners, with the span active', () => {
    const { emitter, span, spanContext } = emitterEmittingOutsideTheSpan();
    const seen: Array<[string, string | undefined]> = [];
    emitter.on('data', () => seen.push(['before', activeTraceContext()?.traceparent]));
    span.bind(emitter);
    emitter.on('data', () => seen.push(['after', activeTraceContext()?.traceparent]));
    emitter.once('end', () => seen.push(['once', activeTraceContext()?.traceparent]));

    expect(activeTraceContext()).toBeUndefined();
    emitter.emit('data', 'chunk');
    emitter.emit('end');
    emitter.emit('end');
    expect(seen).toEqual([
      ['before', spanContext.traceparent],
      ['after', spanContext.traceparent],
      ['once', spanContext.traceparent],
    ]);
    // Outside the emit, nothing is active again.
    expect(activeTraceContext()).toBeUndefined();
    span.end();
  });

  it('keeps emit’s answer, its arguments and removeListener as they were', () => {
    const { emitter, span } = emitterEmittingOutsideTheSpan();
    span.bind(emitter);
    const received: unknown[][] = [];
    const listener = (...args: unknown[]) => received.push(args);
    emitter.on('data', listener);
    expect(emitter.emit('data', 1, 'two')).toBe(true);
    emitter.removeListener('data', listener);
    expect(emitter.emit('data', 3)).toBe(false);
    expect(emitter.listenerCount('data')).toBe(0);
    expect(received).toEqual([[1, 'two']]);
    span.end();
  });

  it('lets a listener’s error reach the caller of emit, leaving no span active', () => {
    const { emitter, span } = emitterEmittingOutsideTheSpan();
    span.bind(emitter);
    emitter.on('data', () => {
      throw new Error('listener failed');
    });
    expect(() => emitter.emit('data')).toThrow('listener failed');
    expect(activeTraceContext()).toBeUndefined();
    span.end();
  });
});
