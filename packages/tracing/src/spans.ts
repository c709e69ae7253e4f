import { context, isSpanContextValid, propagation, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, type Attributes, type Context, type Span } from '@opentelemetry/api';
import type { TraceContext } from './trace-context';
import { formcastTracer, tracingOn } from './tracing-state';

export { SpanKind, type Attributes };

/** Where a span's parent comes from: the active span (undefined), or a context that crossed a boundary (a new trace when it carries none). */
export type SpanParent = { remote: TraceContext | undefined } | undefined;

function parentContext(parent: SpanParent): Context {
  if (parent === undefined) return context.active();
  const carried = parent.remote;
  if (!carried) return ROOT_CONTEXT;
  return propagation.extract(ROOT_CONTEXT, carried);
}

function failed(span: Span, error: unknown): void {
  span.recordException(error instanceof Error ? error : String(error));
  span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.message : String(error) });
}

/** A span that was started and is ended by its owner (an HTTP request, a batch send). */
export interface OpenSpan {
  /** Runs `work` with this span active. */
  run<T>(work: () => T): T;
  /** The span's own context, to carry across a boundary. */
  traceContext(): TraceContext | undefined;
  /** `emitter`'s listeners run with this span active from now on (a request's body arrives on the socket's context). */
  bind<E extends NodeJS.EventEmitter>(emitter: E): E;
  end(outcome?: { name?: string; attributes?: Attributes; error?: unknown }): void;
}

class StartedSpan implements OpenSpan {
  readonly context: Context;

  constructor(readonly span: Span, parent: Context) {
    this.context = trace.setSpan(parent, span);
  }

  run<T>(work: () => T): T {
    return context.with(this.context, work);
  }

  traceContext(): TraceContext | undefined {
    return traceContextOf(this.context);
  }

  bind<E extends NodeJS.EventEmitter>(emitter: E): E {
    // One wrapper around `emit`, not the context manager's bind, which replaces eight listener
    // methods on the emitter and wraps every listener, kept in maps of its own: on a request and
    // its response that took ~1,100 µs of CPU a push to ~800 in embedded mode (bench S1T; 560 untraced).
    const emit = emitter.emit;
    const spanContext = this.context;
    emitter.emit = function emitInSpan(this: E, ...args: Parameters<E['emit']>) {
      return context.with(spanContext, emit as (...a: unknown[]) => boolean, this, ...args);
    } as E['emit'];
    return emitter;
  }

  end(outcome: { name?: string; attributes?: Attributes; error?: unknown } = {}): void {
    if (outcome.name) this.span.updateName(outcome.name);
    if (outcome.attributes) this.span.setAttributes(outcome.attributes);
    if (outcome.error !== undefined) failed(this.span, outcome.error);
    this.span.end();
  }
}

/** Starts a span (undefined while tracing is off). */
export function openSpan(name: string, kind: SpanKind, parent?: SpanParent, attributes?: Attributes): OpenSpan | undefined {
  if (!tracingOn()) return undefined;
  const from = parentContext(parent);
  return new StartedSpan(formcastTracer().startSpan(name, { kind, attributes }, from), from);
}

const noTraceContext = (): undefined => undefined;

/**
 * Runs `work` in a span of its own, ended when `work` settles (a rejection recorded as the
 * span's error); `work` is handed a way to read the span's context, to carry it across a
 * boundary. `parent`: see SpanParent. While tracing is off, just `work()`.
 */
export function inSpan<T>(
  name: string,
  kind: SpanKind,
  work: (traceContext: () => TraceContext | undefined) => Promise<T>,
  parent?: SpanParent,
  attributes?: Attributes,
): Promise<T> {
  const span = openSpan(name, kind, parent, attributes);
  if (!span) return work(noTraceContext);
  return span.run(async () => {
    try {
      const value = await work(() => span.traceContext());
      span.end();
      return value;
    } catch (error) {
      span.end({ error });
      throw error;
    }
  });
}

function traceContextOf(from: Context): TraceContext | undefined {
  const carrier: Partial<TraceContext> = {};
  propagation.inject(from, carrier);
  if (!carrier.traceparent) return undefined;
  return carrier.tracestate ? { traceparent: carrier.traceparent, tracestate: carrier.tracestate } : { traceparent: carrier.traceparent };
}

/** The active span's context, to carry across a boundary; undefined while tracing is off or no span is active. */
export function activeTraceContext(): TraceContext | undefined {
  if (!tracingOn()) return undefined;
  return traceContextOf(context.active());
}

/** The active span's trace id, for log lines; undefined while tracing is off or no span is active. */
export function activeTraceId(): string | undefined {
  if (!tracingOn()) return undefined;
  const span = trace.getActiveSpan()?.spanContext();
  return span && isSpanContextValid(span) ? span.traceId : undefined;
}

/** Runs `work` outside any trace: background work a request merely woke (the outbox relay) must not join its trace. */
export function outsideAnyTrace<T>(work: () => T): T {
  if (!tracingOn()) return work();
  return context.with(ROOT_CONTEXT, work);
}
