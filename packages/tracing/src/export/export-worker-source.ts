/*
 * The export worker, plain JavaScript evaluated by `new Worker(source, {eval: true})`: it runs
 * the same way from dist/ and under jest (as packages/storage's checkpointer does). It takes
 * batches of SpanData from the event loop, queues them as the batch span processor would
 * (OTEL_BSP_*: at most maxQueueSize waiting, exports of maxExportBatchSize, a batch at the
 * latest scheduledDelayMillis after its first span, each export within exportTimeoutMillis,
 * one at a time), and hands them to the SDK's own OTLP exporter (protobuf or JSON encoding,
 * the HTTP send, the OTEL_EXPORTER_OTLP_* settings), rebuilt as the ReadableSpans it reads.
 *
 * Messages in: {spans} (a JSON array of SpanData), {flush: id}, {shutdown: id}. Out: {flushed: id} and {shutDown: id}
 * once everything queued before was exported (or failed), {failed: message} when an export
 * fails (at most one a minute), {dropped: n} as spans are dropped for a full queue.
 */
export const exportWorkerSource = `
const { parentPort, workerData } = require('node:worker_threads');
const { OTLPTraceExporter } = require(workerData.exporterModule);
const { resourceFromAttributes } = require(workerData.resourcesModule);
const settings = workerData.settings;
const resource = resourceFromAttributes(workerData.resourceAttributes);
const scope = workerData.scope;
const exporter = new OTLPTraceExporter();

const traceStateOf = (value) => value === undefined ? undefined : { serialize: () => value };
const durationOf = (start, end) => {
  let seconds = end[0] - start[0];
  let nanos = end[1] - start[1];
  if (nanos < 0) { seconds -= 1; nanos += 1e9; }
  return [seconds, nanos];
};
// SpanData (span-data.ts), by position.
function readableSpan(d) {
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
    instrumentationScope: scope,
  };
}

let queue = [];
let timer = null;
let lastFailureReport = 0;

function exportBatch(batch) {
  return new Promise((resolve) => {
    const timeout = setTimeout(() => resolve({ code: 1, error: new Error('export timed out after ' + settings.exportTimeoutMillis + ' ms') }), settings.exportTimeoutMillis);
    try {
      exporter.export(batch.map(readableSpan), (result) => { clearTimeout(timeout); resolve(result); });
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
    for (const span of JSON.parse(message.spans)) {
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
