/**
 * Spans in one OTLP/HTTP export request, without a protobuf library: only the three levels
 * that lead to spans are walked (ExportTraceServiceRequest.resource_spans = 1,
 * ResourceSpans.scope_spans = 2, ScopeSpans.spans = 2); every other field is skipped by its
 * wire type. The JSON encoding carries the same names in lowerCamelCase.
 */
export function countOtlpSpans(body: Uint8Array, contentType: string): number {
  if (contentType.includes('json')) return countJsonSpans(body);
  let spans = 0;
  for (const resourceSpans of fields(body, 1)) {
    for (const scopeSpans of fields(resourceSpans, 2)) spans += fields(scopeSpans, 2).length;
  }
  return spans;
}

interface JsonExport {
  resourceSpans?: Array<{ scopeSpans?: Array<{ spans?: unknown[] }> }>;
}

function countJsonSpans(body: Uint8Array): number {
  const request = JSON.parse(Buffer.from(body).toString('utf8')) as JsonExport;
  let spans = 0;
  for (const resource of request.resourceSpans ?? []) for (const scope of resource.scopeSpans ?? []) spans += scope.spans?.length ?? 0;
  return spans;
}

/** The length-delimited values of field `wanted` in a message. Throws on a truncated or malformed message. */
function fields(message: Uint8Array, wanted: number): Uint8Array[] {
  const found: Uint8Array[] = [];
  let at = 0;
  const varint = (): number => {
    let value = 0;
    for (let shift = 0; ; shift += 7) {
      if (at >= message.length || shift > 63) throw new Error('OTLP protobuf: truncated varint');
      const byte = message[at++]!;
      // Lengths and tags fit in 32 bits; larger varints (ids, times) are only skipped.
      if (shift < 32) value += (byte & 0x7f) * 2 ** shift;
      if ((byte & 0x80) === 0) return value;
    }
  };
  const skip = (bytes: number) => {
    if (at + bytes > message.length) throw new Error('OTLP protobuf: truncated field');
    at += bytes;
  };
  while (at < message.length) {
    const tag = varint();
    const field = Math.floor(tag / 8);
    const wireType = tag & 7;
    if (wireType === 0) varint();
    else if (wireType === 1) skip(8);
    else if (wireType === 5) skip(4);
    else if (wireType === 2) {
      const length = varint();
      const start = at;
      skip(length);
      if (field === wanted) found.push(message.subarray(start, at));
    } else throw new Error(`OTLP protobuf: wire type ${wireType} not expected`);
  }
  return found;
}
