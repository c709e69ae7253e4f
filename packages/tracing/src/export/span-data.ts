import type { Attributes, HrTime, SpanKind, SpanStatus } from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';

/**
 * A finished span as plain data, all the OTLP encoding needs but the resource and the
 * instrumentation scope (the same for every span of a process: the export worker has them
 * once). Made on the event loop at a span's end, copied to the worker by postMessage.
 */
export interface SpanData {
  traceId: string;
  spanId: string;
  traceFlags: number;
  traceState?: string;
  parentSpanId?: string;
  parentIsRemote?: boolean;
  name: string;
  kind: SpanKind;
  startTime: HrTime;
  endTime: HrTime;
  attributes: Attributes;
  droppedAttributesCount: number;
  events: ReadableSpan['events'];
  droppedEventsCount: number;
  links: Array<{ traceId: string; spanId: string; traceFlags: number; isRemote?: boolean; attributes?: Attributes; droppedAttributesCount?: number }>;
  droppedLinksCount: number;
  status: SpanStatus;
}

export function spanDataOf(span: ReadableSpan): SpanData {
  const context = span.spanContext();
  const parent = span.parentSpanContext;
  return {
    traceId: context.traceId,
    spanId: context.spanId,
    traceFlags: context.traceFlags,
    traceState: context.traceState?.serialize(),
    parentSpanId: parent?.spanId,
    parentIsRemote: parent?.isRemote,
    name: span.name,
    kind: span.kind,
    startTime: span.startTime,
    endTime: span.endTime,
    attributes: span.attributes,
    droppedAttributesCount: span.droppedAttributesCount,
    events: span.events,
    droppedEventsCount: span.droppedEventsCount,
    links: span.links.length === 0 ? [] : span.links.map(({ context: linked, attributes, droppedAttributesCount }) => ({
      traceId: linked.traceId,
      spanId: linked.spanId,
      traceFlags: linked.traceFlags,
      isRemote: linked.isRemote,
      attributes,
      droppedAttributesCount,
    })),
    droppedLinksCount: span.droppedLinksCount,
    status: span.status,
  };
}
