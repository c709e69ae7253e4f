import type { Attributes, AttributeValue } from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace';
import { ProtobufWriter } from './protobuf-writer';

/*
 * OTLP's protobuf (opentelemetry/proto/trace/v1/trace.proto, common/v1/common.proto), written
 * straight from a finished span, as the SDK's ProtobufTraceSerializer writes it. Each span is
 * a whole `ScopeSpans.spans` field (tag 2, length, Span): the export worker puts records side
 * by side under one resource and one scope header (export-worker-source.ts) without reading
 * them.
 */

const SPAN_FLAGS_CONTEXT_HAS_IS_REMOTE = 0x100;
const SPAN_FLAGS_CONTEXT_IS_REMOTE = 0x200;

function spanFlags(traceFlags: number, isRemote: boolean | undefined): number {
  return (traceFlags & 0xff) | SPAN_FLAGS_CONTEXT_HAS_IS_REMOTE | (isRemote ? SPAN_FLAGS_CONTEXT_IS_REMOTE : 0);
}

/** AnyValue: string 1, bool 2, int 3, double 4, array 5, kvlist 6, bytes 7. */
function writeAnyValue(writer: ProtobufWriter, value: unknown): void {
  switch (typeof value) {
    case 'string':
      writer.string(1, value);
      return;
    case 'number':
      if (Number.isInteger(value)) {
        writer.tag(3, 0);
        writer.int64(value);
      } else {
        writer.tag(4, 1);
        writer.double(value);
      }
      return;
    case 'boolean':
      writer.tag(2, 0);
      writer.varint(value ? 1 : 0);
      return;
  }
  if (value instanceof Uint8Array) {
    writer.bytes(7, value);
    return;
  }
  if (Array.isArray(value)) {
    const array = writer.begin(5);
    for (const item of value) {
      const itemStart = writer.begin(1);
      if (item !== null && item !== undefined) writeAnyValue(writer, item);
      writer.finish(itemStart);
    }
    writer.finish(array);
    return;
  }
  if (value !== null && typeof value === 'object') {
    const list = writer.begin(6);
    for (const key of Object.keys(value)) writeKeyValue(writer, 1, key, (value as Record<string, unknown>)[key]);
    writer.finish(list);
  }
}

/** KeyValue: key 1, value 2. */
function writeKeyValue(writer: ProtobufWriter, field: number, key: string, value: unknown): void {
  const start = writer.begin(field);
  writer.string(1, key);
  const valueStart = writer.begin(2);
  writeAnyValue(writer, value);
  writer.finish(valueStart);
  writer.finish(start);
}

export function writeAttributes(writer: ProtobufWriter, field: number, attributes: Attributes | undefined): void {
  if (!attributes) return;
  for (const key in attributes) {
    const value: AttributeValue | undefined = attributes[key];
    if (value !== undefined) writeKeyValue(writer, field, key, value);
  }
}

function writeDropped(writer: ProtobufWriter, field: number, count: number | undefined): void {
  if (!count) return;
  writer.tag(field, 0);
  writer.varint(count);
}

/** One finished span as a `ScopeSpans.spans` field (Span: see trace.proto's field numbers below). */
export function writeSpanRecord(writer: ProtobufWriter, span: ReadableSpan): void {
  const record = writer.begin(2);
  const context = span.spanContext();
  const parent = span.parentSpanContext;
  writer.hexBytes(1, context.traceId);
  writer.hexBytes(2, context.spanId);
  const traceState = context.traceState?.serialize();
  if (traceState) writer.string(3, traceState);
  if (parent?.spanId) writer.hexBytes(4, parent.spanId);
  writer.string(5, span.name);
  // OTLP's kinds are the API's plus one (0 is unspecified).
  writer.tag(6, 0);
  writer.varint(span.kind + 1);
  writer.tag(7, 1);
  writer.hrTime(span.startTime);
  writer.tag(8, 1);
  writer.hrTime(span.endTime);
  writeAttributes(writer, 9, span.attributes);
  writeDropped(writer, 10, span.droppedAttributesCount);
  for (const event of span.events) {
    const start = writer.begin(11);
    writer.tag(1, 1);
    writer.hrTime(event.time);
    writer.string(2, event.name);
    writeAttributes(writer, 3, event.attributes);
    writeDropped(writer, 4, event.droppedAttributesCount);
    writer.finish(start);
  }
  writeDropped(writer, 12, span.droppedEventsCount);
  for (const link of span.links) {
    const start = writer.begin(13);
    writer.hexBytes(1, link.context.traceId);
    writer.hexBytes(2, link.context.spanId);
    const linkState = link.context.traceState?.serialize();
    if (linkState) writer.string(3, linkState);
    writeAttributes(writer, 4, link.attributes);
    writeDropped(writer, 5, link.droppedAttributesCount);
    writer.tag(6, 5);
    writer.fixed32(spanFlags(link.context.traceFlags, link.context.isRemote));
    writer.finish(start);
  }
  writeDropped(writer, 14, span.droppedLinksCount);
  // Status: message 2, code 3.
  const status = writer.begin(15);
  if (span.status.message) writer.string(2, span.status.message);
  writer.tag(3, 0);
  writer.varint(span.status.code);
  writer.finish(status);
  writer.tag(16, 5);
  writer.fixed32(spanFlags(context.traceFlags, parent?.isRemote));
  writer.finish(record);
}

/** Resource (attributes 1) as a message of its own: the export worker puts it before every batch. */
export function encodeResource(attributes: Attributes): Uint8Array {
  const writer = new ProtobufWriter(1024);
  writeAttributes(writer, 1, attributes);
  return writer.take();
}

/** InstrumentationScope (name 1, version 2) as a message of its own. */
export function encodeScope(scope: { name: string; version?: string }): Uint8Array {
  const writer = new ProtobufWriter(256);
  writer.string(1, scope.name);
  if (scope.version) writer.string(2, scope.version);
  return writer.take();
}
