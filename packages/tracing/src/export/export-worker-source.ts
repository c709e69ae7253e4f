/*
 * The export worker, plain JavaScript evaluated by `new Worker(source, {eval: true})`: it runs
 * the same way from dist/ and under jest (as packages/storage's checkpointer does). It takes
 * batches of finished spans from the event loop, queues them as the batch span processor would
 * (OTEL_BSP_*: at most maxQueueSize waiting, exports of maxExportBatchSize, a batch at the
 * latest scheduledDelayMillis after its first span, each export within exportTimeoutMillis,
 * one at a time), and sends them: protobuf spans come already encoded and are only framed
 * here; JSON ones come as SpanData for the SDK's own OTLP/JSON exporter.
 *
 * Messages in: {spans} (protobuf: a Uint8Array of span records; JSON: a JSON array of
 * SpanData), {flush: id}, {shutdown: id}. Out: {flushed: id} and {shutDown: id}
 * once everything queued before was exported (or failed), {failed: message} when an export
 * fails (at most one a minute), {dropped: n} as spans are dropped for a full queue.
 */
export const exportWorkerSource = `
const { parentPort, workerData } = require('node:worker_threads');
const settings = workerData.settings;

// Protobuf: spans arrive encoded (otlp-span-encoding.ts), each a whole ScopeSpans.spans field;
// an export is those records under the resource and scope, sent by the SDK's OTLP/HTTP
// transport (OTEL_EXPORTER_OTLP_* settings, compression, retries) with our framing as its serializer.
function protobufExporter() {
  const { createOtlpHttpExportDelegate, convertLegacyHttpOptions } = require(workerData.httpExportModule);
  const { ProtobufTraceSerializer } = require(workerData.transformerModule);
  const resource = Buffer.from(workerData.resource);
  const scope = Buffer.from(workerData.scope);
  const serializer = { serializeRequest: exportRequest, deserializeResponse: ProtobufTraceSerializer.deserializeResponse };
  return createOtlpHttpExportDelegate(
    convertLegacyHttpOptions({}, 'TRACES', 'v1/traces', { 'Content-Type': 'application/x-protobuf' }),
    serializer,
    'otlp_http_span_exporter',
    { name: 'span', countItems: (records) => records.length },
  );

  // ExportTraceServiceRequest { resource_spans 1: ResourceSpans { resource 1, scope_spans 2: ScopeSpans { scope 1, spans 2... } } }
  function exportRequest(records) {
    let spansLength = 0;
    for (const record of records) spansLength += record.length;
    const resourceHeader = fieldHeader(1, resource.length);
    const scopeHeader = fieldHeader(1, scope.length);
    const scopeSpansLength = scopeHeader.length + scope.length + spansLength;
    const scopeSpansHeader = fieldHeader(2, scopeSpansLength);
    const resourceSpansLength = resourceHeader.length + resource.length + scopeSpansHeader.length + scopeSpansLength;
    return Buffer.concat([fieldHeader(1, resourceSpansLength), resourceHeader, resource, scopeSpansHeader, scopeHeader, scope, ...records]);
  }
}

function fieldHeader(field, length) {
  const bytes = [field * 8 + 2];
  while (length > 0x7f) {
    bytes.push((length & 0x7f) | 0x80);
    length = Math.floor(length / 128);
  }
  bytes.push(length);
  return Buffer.from(bytes);
}

/** The span records of one message from the event loop, each a view of its bytes: tag, length, Span. */
function spanRecords(encoded) {
  const records = [];
  let at = 0;
  while (at < encoded.length) {
    let length = 0;
    let next = at + 1;
    for (let shift = 0; ; shift += 7) {
      const byte = encoded[next++];
      length += (byte & 0x7f) * 2 ** shift;
      if ((byte & 0x80) === 0) break;
    }
    records.push(encoded.subarray(at, next + length));
    at = next + length;
  }
  return records;
}

// JSON: SpanData (span-data.ts) rebuilt as the ReadableSpans the SDK's own OTLP exporter reads.
function jsonExporter() {
  const { OTLPTraceExporter } = require(workerData.exporterModule);
  const { resourceFromAttributes } = require(workerData.resourcesModule);
  const resource = resourceFromAttributes(workerData.resourceAttributes);
  const exporter = new OTLPTraceExporter();
  return { export: (batch, done) => exporter.export(batch.map((d) => readableSpan(d, resource)), done), shutdown: () => exporter.shutdown() };
}

const traceStateOf = (value) => value === undefined ? undefined : { serialize: () => value };
const durationOf = (start, end) => {
  let seconds = end[0] - start[0];
  let nanos = end[1] - start[1];
  if (nanos < 0) { seconds -= 1; nanos += 1e9; }
  return [seconds, nanos];
};
// SpanData (span-data.ts), by position.
function readableSpan(d, resource) {
  const context = { traceId: d[0], spanId: d[1], traceFlags: d[2], traceState: traceStateOf(d[3] === null ? undefined : d[3]) };
  return {
    name: d[6],
    kind: d[7],
    spanContext: () => context,
    parentSpanContext: d[4] === null ? undefined : { traceId: d[0], spanId: d[4], traceFlags: d[2], isRemote: d[5] },
    startTime: d[8],
    endTime: d[9],
    duration: durationOf(d[8], d[9]),
    ended: true,
    attributes: d[10],
    droppedAttributesCount: d[11],
    events: d[12] === 0 ? [] : d[12],
    droppedEventsCount: d[13],
    links: d[14] === 0 ? [] : d[14].map((l) => ({
      context: { traceId: l[0], spanId: l[1], traceFlags: l[2], isRemote: l[3] },
      attributes: l[4] === null ? undefined : l[4],
      droppedAttributesCount: l[5],
    })),
    droppedLinksCount: d[15],
    status: d[17] === null ? { code: d[16] } : { code: d[16], message: d[17] },
    resource,
    instrumentationScope: workerData.scope,
  };
}

const exporter = workerData.encoding === 'protobuf' ? protobufExporter() : jsonExporter();

let queue = [];
let timer = null;
let lastFailureReport = 0;

function exportBatch(batch) {
  return new Promise((resolve) => {
    const timeout = setTimeout(() => resolve({ code: 1, error: new Error('export timed out after ' + settings.exportTimeoutMillis + ' ms') }), settings.exportTimeoutMillis);
    try {
      exporter.export(batch, (result) => { clearTimeout(timeout); resolve(result); });
    } catch (error) {
      clearTimeout(timeout);
      resolve({ code: 1, error });
    }
  });
}

async function drain(everything) {
  while (queue.length >= (everything ? 1 : settings.maxExportBatchSize)) {
    const result = await exportBatch(queue.splice(0, settings.maxExportBatchSize));
    if (result.code !== 0 && Date.now() - lastFailureReport > 60000) {
      lastFailureReport = Date.now();
      parentPort.postMessage({ failed: String((result.error && result.error.message) || result.error || 'export failed') });
    }
  }
  if (queue.length > 0) armTimer();
}

// Exports run one after another, in the order asked for.
let exports = Promise.resolve();
const exportQueued = (everything) => (exports = exports.then(() => drain(everything)));

function armTimer() {
  if (timer !== null) return;
  timer = setTimeout(() => { timer = null; exportQueued(true); }, settings.scheduledDelayMillis);
}

parentPort.on('message', (message) => {
  if (message.spans !== undefined) {
    let dropped = 0;
    for (const span of typeof message.spans === 'string' ? JSON.parse(message.spans) : spanRecords(message.spans)) {
      if (queue.length >= settings.maxQueueSize) dropped += 1;
      else queue.push(span);
    }
    if (dropped > 0) parentPort.postMessage({ dropped });
    if (queue.length >= settings.maxExportBatchSize) exportQueued(false);
    else if (queue.length > 0) armTimer();
  }
  if (message.flush !== undefined) exportQueued(true).then(() => parentPort.postMessage({ flushed: message.flush }));
  if (message.shutdown !== undefined) {
    if (timer !== null) clearTimeout(timer);
    exportQueued(true)
      .then(() => exporter.shutdown())
      .catch(() => undefined)
      .then(() => parentPort.postMessage({ shutDown: message.shutdown }));
  }
});
`;
