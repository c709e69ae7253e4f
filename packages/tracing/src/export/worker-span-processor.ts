import { Worker } from 'node:worker_threads';
import { diag, TraceFlags, type Attributes } from '@opentelemetry/api';
import type { ReadableSpan, Span, SpanProcessor } from '@opentelemetry/sdk-trace';
import type { BatchSettings } from './batch-settings';
import { exportWorkerSource } from './export-worker-source';
import { encodeResource, encodeScope } from './otlp-span-encoding';
import { JsonSpanBuffer, ProtobufSpanBuffer, type SpanBuffer } from './span-buffers';

export interface WorkerSpanProcessorOptions {
  /**
   * `protobuf`: spans encoded here as OTLP protobuf, framed and sent by the worker over the
   * SDK's OTLP/HTTP transport. `json`: spans handed over as SpanData, exported by
   * `exporterModule`'s OTLPTraceExporter (resolved path) in the worker.
   */
  encoding: 'protobuf' | 'json';
  exporterModule?: string;
  /** The worker's environment: the exporter reads OTEL_EXPORTER_OTLP_* from it. */
  env: NodeJS.ProcessEnv;
  resourceAttributes: Attributes;
  scope: { name: string; version?: string };
  settings: BatchSettings;
  /** How long the worker waits for spans before it exports what it holds and ends (default exportWorkerIdleMs). */
  idleMs?: number;
}

/** A trace export worker given no spans this long ends (after exporting what it holds); the next spans start another. */
export const exportWorkerIdleMs = 30_000;

/**
 * The worker's heap: its queue holds at most maxQueueSize spans (4 KB allowed for each: one
 * with 1.5 KB of attributes takes ~3 KB there) and it encodes one batch at a time; the rest
 * is the exporter's own. 32 MB, more for a larger OTEL_BSP_MAX_QUEUE_SIZE. Not less: at
 * 16 MB the worker spent most of its time collecting (bench S1T on Node 22: 265 µs of CPU a
 * push in the worker against 85, and S1T at 0.66 × S1 against 0.82).
 */
function workerHeapLimits(settings: Pick<BatchSettings, 'maxQueueSize'>): { maxOldGenerationSizeMb: number; maxYoungGenerationSizeMb: number } {
  return { maxOldGenerationSizeMb: Math.max(32, 8 + Math.ceil((settings.maxQueueSize * 4) / 1024)), maxYoungGenerationSizeMb: 4 };
}

/** Spans handed to the worker in one message at most, and the longest a span waits on the event loop for its message. */
const postEvery = 128;
const postDelayMs = 200;

/**
 * The batch span processor with everything after a span's end off the event loop: each
 * finished span becomes plain data (SpanData) written as JSON at once, handed to a worker
 * thread in messages of up to 128 spans; the worker queues, batches, encodes (protobuf or
 * JSON) and sends them with the SDK's own OTLP exporter (export-worker-source.ts). On the
 * event loop a span costs its copy into plain data; the encoding, its garbage and the HTTP
 * send are the worker's.
 *
 * forceFlush and shutdown resolve once the worker exported everything handed over before
 * them (or the export timeout passed): a graceful stop loses nothing. The worker starts with
 * the first spans handed over and ends after `idleMs` without any; it never keeps the
 * process alive between flushes; a worker that fails (an exception, out of memory) stops
 * the export and only that: spans are dropped from then on, the process carries on.
 */
export class WorkerSpanProcessor implements SpanProcessor {
  private worker: Worker | null = null;
  /** The worker failed: export stopped for good. */
  private broken = false;
  private idleTimer: NodeJS.Timeout | null = null;
  private postsSinceIdleCheck = 0;
  private readonly buffer: SpanBuffer;
  private postTimer: NodeJS.Timeout | null = null;
  private readonly waiting = new Map<number, () => void>();
  private nextRequest = 0;
  private shuttingDown: Promise<void> | null = null;

  constructor(private readonly options: WorkerSpanProcessorOptions) {
    this.buffer = options.encoding === 'protobuf' ? new ProtobufSpanBuffer() : new JsonSpanBuffer();
  }

  /** The worker, started at the first spans handed over (an untouched process never holds its isolate and exporter, ~20 MB). */
  private started(): Worker | null {
    if (this.worker || this.broken || this.shuttingDown) return this.worker;
    const { encoding, exporterModule, env, resourceAttributes, scope, settings } = this.options;
    const workerData =
      encoding === 'protobuf'
        ? {
            encoding,
            httpExportModule: require.resolve('@opentelemetry/otlp-exporter-base/node-http'),
            transformerModule: require.resolve('@opentelemetry/otlp-transformer'),
            resource: encodeResource(resourceAttributes),
            scope: encodeScope(scope),
            settings,
          }
        : { encoding, exporterModule, resourcesModule: require.resolve('@opentelemetry/resources'), resourceAttributes, scope, settings };
    const worker = new Worker(exportWorkerSource, {
      eval: true,
      env,
      workerData,
      resourceLimits: workerHeapLimits(settings),
    });
    worker.unref();
    // A worker this processor ended itself (idle) is no failure: only the current one's events count.
    worker.on('message', (message: WorkerMessage) => this.received(message));
    worker.on('error', (error) => worker === this.worker && this.failed(`the trace export worker failed: ${error.message}`));
    worker.on('exit', (code) => worker === this.worker && this.failed(`the trace export worker exited (${code})`));
    this.worker = worker;
    return worker;
  }

  /**
   * After `idleMs` with no spans handed over, the worker is asked to export what it holds and,
   * if no span came meanwhile, ended; the next spans start another. A process traced under
   * load keeps its worker; one left idle gives back its isolate.
   */
  private endWhenIdle(): void {
    if (this.idleTimer !== null) {
      this.postsSinceIdleCheck += 1;
      return;
    }
    this.postsSinceIdleCheck = 0;
    const check = () => {
      this.idleTimer = null;
      if (!this.worker || this.shuttingDown) return;
      if (this.postsSinceIdleCheck > 0) {
        this.postsSinceIdleCheck = 0;
        this.idleTimer = setTimeout(check, this.options.idleMs ?? exportWorkerIdleMs);
        this.idleTimer.unref();
        return;
      }
      const worker = this.worker;
      void this.ask('flush').then(() => {
        if (this.worker !== worker || this.postsSinceIdleCheck > 0 || this.waiting.size > 0 || this.buffer.count > 0) {
          if (this.worker === worker) this.endWhenIdle();
          return;
        }
        this.worker = null;
        void worker.terminate();
      });
    };
    this.idleTimer = setTimeout(check, this.options.idleMs ?? exportWorkerIdleMs);
    this.idleTimer.unref();
  }

  /** Whether an export worker is up (started by spans, not yet ended). */
  get workerRunning(): boolean {
    return this.worker !== null;
  }

  onStart(_span: Span): void {}

  onEnd(span: ReadableSpan): void {
    if (this.broken || this.shuttingDown || (span.spanContext().traceFlags & TraceFlags.SAMPLED) === 0) return;
    this.buffer.add(span);
    if (this.buffer.count >= postEvery) this.post();
    else if (this.postTimer === null) {
      this.postTimer = setTimeout(() => this.post(), Math.min(postDelayMs, this.options.settings.scheduledDelayMillis));
      this.postTimer.unref();
    }
  }

  forceFlush(): Promise<void> {
    return this.ask('flush');
  }

  shutdown(): Promise<void> {
    if (this.idleTimer !== null) clearTimeout(this.idleTimer);
    this.idleTimer = null;
    this.shuttingDown ??= this.ask('shutdown').then(() => {
      const worker = this.worker;
      this.worker = null;
      if (worker) void worker.terminate();
    });
    return this.shuttingDown;
  }

  private post(): void {
    if (this.postTimer !== null) clearTimeout(this.postTimer);
    this.postTimer = null;
    if (this.buffer.count === 0) return;
    const worker = this.started();
    if (!worker) return;
    const spans = this.buffer.take();
    this.endWhenIdle();
    worker.postMessage({ spans }, typeof spans === 'string' ? [] : [spans.buffer as ArrayBuffer]);
  }

  /** Hands the worker what is buffered, then `what`; resolves on its answer, the export timeout, or its failure. */
  private ask(what: 'flush' | 'shutdown'): Promise<void> {
    this.post();
    const worker = this.worker;
    if (!worker) return Promise.resolve();
    const id = this.nextRequest++;
    // Kept alive while a caller waits for the answer (a stop awaiting its flush).
    worker.ref();
    return new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timeout);
        this.waiting.delete(id);
        if (this.waiting.size === 0) this.worker?.unref();
        resolve();
      };
      // Every batch may take the export timeout; a flush does not wait for longer than one.
      const timeout = setTimeout(done, this.options.settings.exportTimeoutMillis + 1000);
      this.waiting.set(id, done);
      worker.postMessage({ [what]: id });
    });
  }

  private received(message: WorkerMessage): void {
    if ('flushed' in message) this.waiting.get(message.flushed)?.();
    else if ('shutDown' in message) this.waiting.get(message.shutDown)?.();
    else if ('failed' in message) diag.warn(`trace export failed: ${message.failed}`);
    else if ('dropped' in message) diag.warn(`${message.dropped} spans dropped: the export queue (OTEL_BSP_MAX_QUEUE_SIZE) was full`);
  }

  private failed(reason: string): void {
    if (!this.worker) return;
    this.worker = null;
    this.broken = true;
    this.buffer.take();
    if (!this.shuttingDown) process.stderr.write(`${reason}; traces are no longer exported\n`);
    for (const done of [...this.waiting.values()]) done();
  }
}

type WorkerMessage = { flushed: number } | { shutDown: number } | { failed: string } | { dropped: number };
