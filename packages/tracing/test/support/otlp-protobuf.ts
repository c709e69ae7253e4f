import { parse } from 'protobufjs';

/**
 * OTLP's trace request as the collector's protobuf definitions give it (opentelemetry-proto
 * v1: trace/v1/trace.proto, common/v1/common.proto, resource/v1/resource.proto, abridged to
 * the messages an export carries), decoded by protobufjs: a reading independent of our own
 * encoder (src/export/otlp-span-encoding.ts).
 */
const otlpTraceProto = `
syntax = "proto3";
package otlp;
message ExportTraceServiceRequest { repeated ResourceSpans resource_spans = 1; }
message ResourceSpans { Resource resource = 1; repeated ScopeSpans scope_spans = 2; string schema_url = 3; }
message Resource { repeated KeyValue attributes = 1; uint32 dropped_attributes_count = 2; }
message ScopeSpans { InstrumentationScope scope = 1; repeated Span spans = 2; string schema_url = 3; }
message InstrumentationScope { string name = 1; string version = 2; repeated KeyValue attributes = 3; uint32 dropped_attributes_count = 4; }
message Span {
  bytes trace_id = 1; bytes span_id = 2; string trace_state = 3; bytes parent_span_id = 4; fixed32 flags = 16;
  string name = 5; int32 kind = 6; fixed64 start_time_unix_nano = 7; fixed64 end_time_unix_nano = 8;
  repeated KeyValue attributes = 9; uint32 dropped_attributes_count = 10;
  message Event { fixed64 time_unix_nano = 1; string name = 2; repeated KeyValue attributes = 3; uint32 dropped_attributes_count = 4; }
  repeated Event events = 11; uint32 dropped_events_count = 12;
  message Link { bytes trace_id = 1; bytes span_id = 2; string trace_state = 3; repeated KeyValue attributes = 4; uint32 dropped_attributes_count = 5; fixed32 flags = 6; }
  repeated Link links = 13; uint32 dropped_links_count = 14;
  Status status = 15;
}
message Status { string message = 2; int32 code = 3; }
message AnyValue {
  oneof value { string string_value = 1; bool bool_value = 2; int64 int_value = 3; double double_value = 4; ArrayValue array_value = 5; KeyValueList kvlist_value = 6; bytes bytes_value = 7; }
}
message ArrayValue { repeated AnyValue values = 1; }
message KeyValueList { repeated KeyValue values = 1; }
message KeyValue { string key = 1; AnyValue value = 2; }
`;

const exportRequest = parse(otlpTraceProto, { keepCase: false }).root.lookupType('otlp.ExportTraceServiceRequest');

/** One export's request as plain objects: bytes in hex, 64-bit numbers as strings, every field (defaults too), names in lowerCamelCase (as OTLP/JSON names them). */
export function decodeOtlpTraceRequest(body: Uint8Array): any {
  const message = exportRequest.decode(body);
  return hexBytes(exportRequest.toObject(message, { bytes: Array, longs: String, defaults: true, arrays: true }));
}

function hexBytes(value: unknown): unknown {
  if (Array.isArray(value)) return value.every((item) => typeof item === 'number') && value.length > 0 ? Buffer.from(value).toString('hex') : value.map(hexBytes);
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, hexBytes(item)]));
  return value;
}

const scopeSpans = exportRequest.lookupType('otlp.ScopeSpans');

/** Bytes of `ScopeSpans.spans` records side by side (what the event loop hands the export worker), read as one ScopeSpans message. */
export function decodeSpanRecords(records: Uint8Array): any {
  return hexBytes(scopeSpans.toObject(scopeSpans.decode(records), { bytes: Array, longs: String, defaults: true, arrays: true }));
}
