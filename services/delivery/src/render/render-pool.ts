import { Worker } from 'node:worker_threads';
import { documentFunctions, type FormQuestion } from '../domain/document-model';
import { renderWorkerSource } from './render-worker-source';

/** One delivery's email to render: the submission's JSON text, the form's questions, the parameters and templates. */
export interface RenderTask {
  format: 'text_format' | 'pdf_format' | 'word_format' | 'json_format' | 'xml_format';
  formatParameters: Record<string, unknown>;
  /** The SubmissionReceivedPayload as the delivery keeps it: one string, copied to the worker at once. */
  submissionJson: string;
  outline: FormQuestion[];
  subjectTemplate: string | null;
  bodyTemplate: string | null;
  /** email_transport.to_address_form_field: the worker reads its answer. */
  toAddressFormField: string | null;
  /** json_format and xml_format: the webhook body, attached as it is. */
  rawBody: string | null;
  /** word_format: the template resource's .docx bytes. */
  wordTemplate: Uint8Array | null;
  /**
   * The images the submission names but does not carry (uploaded apart): identifier -> bytes,
   * or why there are none (drawn as a placeholder saying so). Absent: the render answers
   * `{wantImages}` when the document needs some.
   */
  images?: Record<string, Uint8Array | string> | null;
}

/** An image sent beside a text email (text_format.include_images), by Content-ID. */
export interface EmailImage {
  fileName: string;
  contentType: string;
  bytes: Buffer;
  cid: string;
}

export interface RenderedEmail {
  subject: string;
  text: string;
  html: string | null;
  /** The document: attached when `attach`; for text_format, the body itself (kept for GET …/document). */
  document: { fileName: string; contentType: string; bytes: Buffer };
  attach: boolean;
  /** What `to_address_form_field` answered (addresses are picked from it), or null. */
  answeredTo: string | null;
  /** The submitting device's identifier. */
  device: string;
  images: EmailImage[];
}

/** What a render gives: the email, or the identifiers of the images it needs first (render again with `images`). */
export type RenderOutcome = RenderedEmail | { wantImages: string[] };

/** A render that could not finish: too long, too big, or a template failing on these answers. */
export class RenderError extends Error {
  override name = 'RenderError';
}

export interface RenderPoolOptions {
  workers: number;
  timeoutMs: number;
  memoryMb: number;
  /** A worker left without a job this long is ended (its isolate and libraries, ~25-30 MB); the next job starts another. */
  idleMs?: number;
}

/** How long a render worker waits for its next job before it ends (a steady stream keeps it). */
export const renderWorkerIdleMs = 30_000;

interface Job {
  id: number;
  task: RenderTask;
  resolve: (value: RenderOutcome) => void;
  reject: (error: Error) => void;
}

interface Slot {
  worker: Worker;
  job: Job | null;
  timer: NodeJS.Timeout | null;
  /** Ends the worker when it has waited `idleMs` for a job. */
  idle: NodeJS.Timeout | null;
}

/** Heap a render takes per byte of the submission's JSON, at most (the parsed answers, the layout, the templates' context), measured with room to spare. */
const heapPerJsonByte = 8;

const modules = () => ({
  liquidjs: require.resolve('liquidjs'),
  pdfkit: require.resolve('pdfkit'),
  docx: require.resolve('docx'),
  pizzip: require.resolve('pizzip'),
  docxtemplater: require.resolve('docxtemplater'),
});

/**
 * Renders documents on worker threads, never on the event loop: a large submission takes a
 * worker, not the process. Each worker has a heap limit (`memoryMb`): a render needing more
 * ends that worker only. A render past `timeoutMs` has its worker ended. Either way the job
 * fails with RenderError and a fresh worker takes the next one. Jobs wait in order for a
 * free worker; workers start when first needed, end after `idleMs` without a job, and do
 * not keep the process alive.
 */
export class RenderPool {
  private readonly slots: Slot[] = [];
  private readonly queue: Job[] = [];
  private nextId = 0;
  private closed = false;

  constructor(private readonly options: RenderPoolOptions) {}

  render(task: RenderTask): Promise<RenderOutcome> {
    if (this.closed) return Promise.reject(new RenderError('the render pool is closed'));
    // A submission whose parsed answers and layout cannot fit the worker's heap is refused
    // here: some allocations past a worker's limit (a large JSON.parse) abort the whole
    // process on Node 20 instead of ending the worker alone.
    const room = (this.options.memoryMb * 1024 * 1024) / heapPerJsonByte;
    if (task.submissionJson.length > room) {
      return Promise.reject(new RenderError(`the submission (${task.submissionJson.length} bytes of JSON) is too large to render within ${this.options.memoryMb} MB (DELIVERY_RENDER_MEMORY_MB)`));
    }
    return new Promise((resolve, reject) => {
      this.queue.push({ id: this.nextId++, task, resolve, reject });
      this.pump();
    });
  }

  /** Workers started and not ended. */
  get workers(): number {
    return this.slots.length;
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const job of this.queue.splice(0)) job.reject(new RenderError('the render pool is closed'));
    await Promise.all(this.slots.splice(0).map((slot) => this.end(slot, new RenderError('the render pool is closed'))));
  }

  private pump(): void {
    while (this.queue.length > 0) {
      let slot = this.slots.find((candidate) => candidate.job === null);
      if (!slot && this.slots.length < this.options.workers) slot = this.spawn();
      if (!slot) return;
      this.start(slot, this.queue.shift()!);
    }
  }

  private spawn(): Slot {
    const worker = new Worker(renderWorkerSource(documentFunctions), {
      eval: true,
      workerData: { modules: modules(), renderLimitMs: this.options.timeoutMs },
      resourceLimits: { maxOldGenerationSizeMb: this.options.memoryMb, maxYoungGenerationSizeMb: Math.max(4, Math.floor(this.options.memoryMb / 8)) },
    });
    worker.unref();
    const slot: Slot = { worker, job: null, timer: null, idle: null };
    worker.on('message', (message: { id: number; result?: RenderOutcome; error?: string }) => {
      const job = slot.job;
      if (!job || job.id !== message.id) return;
      this.finish(slot);
      const result = message.result;
      if (message.error !== undefined || !result) job.reject(new RenderError(message.error ?? 'the render worker answered nothing'));
      else if ('wantImages' in result) job.resolve(result);
      else {
        const asBuffer = (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
        job.resolve({
          ...result,
          document: { ...result.document, bytes: asBuffer(result.document.bytes) },
          images: (result.images ?? []).map((image) => ({ ...image, bytes: asBuffer(image.bytes) })),
        });
      }
      this.pump();
      if (slot.job === null) this.endWhenIdle(slot);
    });
    const failed = (why: string) => {
      const job = slot.job;
      this.remove(slot);
      job?.reject(new RenderError(why));
      this.pump();
    };
    worker.on('error', (error: Error & { code?: string }) =>
      failed(error.code === 'ERR_WORKER_OUT_OF_MEMORY' ? `the document needs more than ${this.options.memoryMb} MB to render` : `rendering failed: ${error.message}`),
    );
    worker.on('exit', (code) => failed(`the render worker stopped (${code})`));
    this.slots.push(slot);
    return slot;
  }

  private start(slot: Slot, job: Job): void {
    if (slot.idle) clearTimeout(slot.idle);
    slot.idle = null;
    slot.job = job;
    slot.worker.ref();
    slot.timer = setTimeout(() => {
      this.remove(slot);
      void slot.worker.terminate();
      job.reject(new RenderError(`rendering took longer than ${this.options.timeoutMs} ms`));
      this.pump();
    }, this.options.timeoutMs);
    // Copied, not transferred: a Buffer's memory may be Node's shared pool.
    slot.worker.postMessage({ id: job.id, task: job.task });
  }

  private finish(slot: Slot): void {
    if (slot.timer) clearTimeout(slot.timer);
    slot.timer = null;
    slot.job = null;
    slot.worker.unref();
  }

  /**
   * A worker holds its isolate, pdfkit and the fonts' metrics (~25-30 MB of RSS) while it
   * waits: after a burst of documents, that stays with the process for good unless it ends.
   */
  private endWhenIdle(slot: Slot): void {
    if (slot.idle) clearTimeout(slot.idle);
    slot.idle = setTimeout(() => {
      slot.idle = null;
      if (slot.job !== null || !this.slots.includes(slot)) return;
      this.remove(slot);
      void slot.worker.terminate();
    }, this.options.idleMs ?? renderWorkerIdleMs);
    slot.idle.unref();
  }

  private remove(slot: Slot): void {
    if (slot.idle) clearTimeout(slot.idle);
    slot.idle = null;
    this.finish(slot);
    const index = this.slots.indexOf(slot);
    if (index >= 0) this.slots.splice(index, 1);
  }

  private async end(slot: Slot, error: Error): Promise<void> {
    const job = slot.job;
    this.remove(slot);
    job?.reject(error);
    await slot.worker.terminate();
  }
}
