import { diag } from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace';
import { writeSpanRecord } from './otlp-span-encoding';
import { ProtobufWriter } from './protobuf-writer';
import { spanDataOf } from './span-data';

/** Finished spans waiting on the event loop for their message to the worker. */
export interface SpanBuffer {
  readonly count: number;
  add(span: ReadableSpan): void;
  /** What is buffered, as the worker reads it, and the buffer emptied. */
  take(): string | Uint8Array;
}

/** Spans as OTLP protobuf records, in one buffer handed over (transferred, not copied) as it is. */
export class ProtobufSpanBuffer implements SpanBuffer {
  count = 0;
  private readonly writer = new ProtobufWriter();

  add(span: ReadableSpan): void {
    const start = this.writer.pos;
    try {
      writeSpanRecord(this.writer, span);
      this.count += 1;
    } catch (error) {
      // A span that cannot be encoded is dropped whole: the records before it stay readable.
      this.writer.pos = start;
      diag.warn(`a span could not be encoded and was dropped: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  take(): Uint8Array {
    this.count = 0;
    return this.writer.take();
  }
}

/** Each a span's SpanData as JSON: a flat string outlives the span's objects at no cost to the collector. */
export class JsonSpanBuffer implements SpanBuffer {
  private spans: string[] = [];

  get count(): number {
    return this.spans.length;
  }

  add(span: ReadableSpan): void {
    this.spans.push(JSON.stringify(spanDataOf(span)));
  }

  take(): string {
    const spans = this.spans;
    this.spans = [];
    return `[${spans.join(',')}]`;
  }
}
