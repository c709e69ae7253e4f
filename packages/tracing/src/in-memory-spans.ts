import type { ReadableSpan } from '@opentelemetry/sdk-trace';
import { startTracing } from './start-tracing';

export type { ReadableSpan };

/** Tracing on, every span kept in memory as it ends: for tests. */
export interface SpansInMemory {
  /** The spans ended so far, in the order they ended. */
  spans(): ReadableSpan[];
  reset(): void;
  stop(): Promise<void>;
}

/** Starts tracing with an in-memory exporter, whatever OTEL_* says (tests). The SDK is loaded here, on demand. */
export function recordSpansInMemory(serviceName = 'formcast-test'): SpansInMemory {
  const { InMemorySpanExporter, SimpleSpanProcessor } = require('@opentelemetry/sdk-trace') as typeof import('@opentelemetry/sdk-trace');
  const exporter = new InMemorySpanExporter();
  const tracing = startTracing({ serviceName, spanProcessor: new SimpleSpanProcessor({ exporter }) })!;
  return {
    spans: () => exporter.getFinishedSpans(),
    reset: () => exporter.reset(),
    stop: () => tracing.stop(),
  };
}
