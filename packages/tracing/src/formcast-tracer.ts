import { context as activeContext, SamplingDecision, trace, TraceFlags, type Attributes, type Context, type Span, type SpanKind, type Tracer, type TracerProvider } from '@opentelemetry/api';
import { getNumberFromEnv } from '@opentelemetry/core';
import type { Resource } from '@opentelemetry/resources';
import type { Span as SdkSpan, SpanProcessor } from '@opentelemetry/sdk-trace';
import { RecordedSpan, type SpanSettings } from './recorded-span';
import { samplerFromEnv } from './sampler-from-env';
import { newSpanId, newTraceId } from './span-ids';

/** OTEL_SPAN_* limits, falling back on the general OTEL_ATTRIBUTE_* ones, as the SDK's provider merges them. */
function spanLimitsFromEnv(): SpanSettings['limits'] {
  return {
    attributeCountLimit: getNumberFromEnv('OTEL_SPAN_ATTRIBUTE_COUNT_LIMIT') ?? getNumberFromEnv('OTEL_ATTRIBUTE_COUNT_LIMIT') ?? 128,
    attributeValueLengthLimit: getNumberFromEnv('OTEL_SPAN_ATTRIBUTE_VALUE_LENGTH_LIMIT') ?? getNumberFromEnv('OTEL_ATTRIBUTE_VALUE_LENGTH_LIMIT') ?? Infinity,
    eventCountLimit: getNumberFromEnv('OTEL_SPAN_EVENT_COUNT_LIMIT') ?? 128,
    attributePerEventCountLimit: getNumberFromEnv('OTEL_SPAN_ATTRIBUTE_PER_EVENT_COUNT_LIMIT') ?? 128,
  };
}

/**
 * Formcast's tracer in place of the SDK's: the same sampler (OTEL_TRACES_SAMPLER), span limits
 * and span processors, spans recorded by RecordedSpan, ids from span-ids.ts; a span not
 * sampled is the API's non-recording span, carrying its context on. What it leaves out, unused
 * here: links at start, explicit start times, the SDK's own tracer metrics.
 */
export class FormcastTracer implements Tracer, TracerProvider {
  private readonly sampler = samplerFromEnv();
  private readonly settings: SpanSettings;

  constructor(
    resource: Resource,
    scope: { name: string; version?: string },
    private readonly processors: SpanProcessor[],
  ) {
    this.settings = {
      resource,
      scope,
      limits: spanLimitsFromEnv(),
      ended: processors.length === 1 ? (span) => processors[0]!.onEnd(span) : (span) => processors.forEach((processor) => processor.onEnd(span)),
    };
  }

  getTracer(): Tracer {
    return this;
  }

  startSpan(name: string, options: { kind?: SpanKind; attributes?: Attributes } = {}, context: Context = activeContext.active()): Span {
    const parent = trace.getSpanContext(context);
    const validParent = parent && trace.isSpanContextValid(parent) ? parent : undefined;
    const traceId = validParent ? validParent.traceId : newTraceId();
    const kind = options.kind ?? 0;
    const sampled = this.sampler.shouldSample(context, traceId, name, kind, options.attributes ?? {}, []);
    const spanContext = {
      traceId,
      spanId: newSpanId(),
      traceFlags: sampled.decision === SamplingDecision.RECORD_AND_SAMPLED ? TraceFlags.SAMPLED : TraceFlags.NONE,
      traceState: sampled.traceState ?? validParent?.traceState,
    };
    if (sampled.decision === SamplingDecision.NOT_RECORD) return trace.wrapSpanContext(spanContext);
    const attributes = sampled.attributes ? { ...options.attributes, ...sampled.attributes } : options.attributes;
    const span = new RecordedSpan(spanContext, validParent, name, kind, attributes, this.settings);
    for (const processor of this.processors) processor.onStart(span as unknown as SdkSpan, context);
    return span;
  }

  /** For a library using the global API (Formcast's own code opens spans with openSpan and inSpan). */
  startActiveSpan<F extends (span: Span) => unknown>(name: string, ...rest: unknown[]): ReturnType<F> {
    const work = rest[rest.length - 1] as F;
    const options = (rest.length >= 2 ? rest[0] : {}) as { kind?: SpanKind; attributes?: Attributes };
    const parent = (rest.length >= 3 ? rest[1] : undefined) as Context | undefined;
    const from = parent ?? activeContext.active();
    const span = this.startSpan(name, options, from);
    return activeContext.with(trace.setSpan(from, span), work as (span: Span) => ReturnType<F>, undefined, span);
  }

  async shutdown(): Promise<void> {
    await Promise.all(this.processors.map((processor) => processor.shutdown()));
  }
}
