import { context, propagation, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, TraceFlags, type Attributes, type Context, type Span, type SpanContext } from '@opentelemetry/api';
import type { TraceContext } from './trace-context';
import { formcastTracer, tracingOn } from './tracing-state';

export { SpanKind, type Attributes };

/** Where a span's parent comes from: the active span (undefined), or a context that crossed a boundary (a new trace when it carries none). */
export type SpanParent = { remote: TraceContext | undefined } | undefined;

function parentContext(parent: SpanParent): Context {
  if (parent === undefined) return context.active();
  const carried = parent.remote;
  if (!carried) return ROOT_CONTEXT;
  // A traceparent as we write it (version 00, no tracestate): read here; anything else by the propagator.
  const remote = carried.tracestate === undefined ? spanContextOf(carried.traceparent) : undefined;
  return remote ? trace.setSpanContext(ROOT_CONTEXT, remote) : propagation.extract(ROOT_CONTEXT, carried);
}

const lowerHex = /^[0-9a-f]+$/;

/** `00-<trace id>-<span id>-<flags>`, the W3C traceparent of version 00, as a remote span context; undefined when it is not one. */
function spanContextOf(traceparent: string): SpanContext | undefined {
  if (traceparent.length !== 55 || !traceparent.startsWith('00-') || traceparent[35] !== '-' || traceparent[52] !== '-') return undefined;
  const traceId = traceparent.slice(3, 35);
  const spanId = traceparent.slice(36, 52);
  const traceFlags = Number.parseInt(traceparent.slice(53), 16);
  if (!lowerHex.test(traceId) || !lowerHex.test(spanId) || Number.isNaN(traceFlags) || traceId === invalidTraceId || spanId === invalidSpanId) return undefined;
  return { traceId, spanId, traceFlags, isRemote: true };
}

const invalidTraceId = '00000000000000000000000000000000';
const invalidSpanId = '0000000000000000';

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
  // `then`, not an async wrapper: one promise a span less for the async hooks to follow.
  return span.run(() => {
    let working: Promise<T>;
    try {
      working = work(() => span.traceContext());
    } catch (error) {
      // As from an async function: a rejection, not a throw.
      span.end({ error });
      return Promise.reject(error);
    }
    return working.then(
      (value) => {
        span.end();
        return value;
      },
      (error: unknown) => {
        span.end({ error });
        throw error;
      },
    );
  });
}

/**
 * The W3C trace context of `from`'s span, written here as the W3C propagator writes it
 * (traceparent version 00, tracestate serialized when there is one), without its per-call
 * lookups and checks: our spans' ids come from the SDK, valid by construction.
 */
function traceContextOf(from: Context): TraceContext | undefined {
  const span = trace.getSpanContext(from);
  if (!span || span.traceId === invalidTraceId) return undefined;
  const traceparent = `00-${span.traceId}-${span.spanId}-0${Number(span.traceFlags & TraceFlags.SAMPLED).toString(16)}`;
  const tracestate = span.traceState?.serialize();
  return tracestate ? { traceparent, tracestate } : { traceparent };
}

/** The active span's context, to carry across a boundary; undefined while tracing is off or no span is active. */
export function activeTraceContext(): TraceContext | undefined {
  if (!tracingOn()) return undefined;
  return traceContextOf(context.active());
}

/** The active span's trace id, for log lines; undefined while tracing is off or no span is active. */
export function activeTraceId(): string | undefined {
  if (!tracingOn()) return undefined;
  const traceId = trace.getSpanContext(context.active())?.traceId;
  return traceId && traceId !== invalidTraceId ? traceId : undefined;
}

/** Runs `work` outside any trace: background work a request merely woke (the outbox relay) must not join its trace. */
export function outsideAnyTrace<T>(work: () => T): T {
  if (!tracingOn()) return work();
  return context.with(ROOT_CONTEXT, work);
}
