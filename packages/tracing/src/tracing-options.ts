import type { SpanProcessor } from '@opentelemetry/sdk-trace';

/** How a process starts tracing: startTracing's options, which the SDK provider installs. */
export interface TracingOptions {
  /** The process's role (`gateway`, `push`, `formcast` for embedded); OTEL_SERVICE_NAME wins over it. */
  serviceName: string;
  env?: NodeJS.ProcessEnv;
  /** Where spans go instead of the exporters OTEL_* names (tests: an in-memory exporter); tracing starts whatever the environment says. */
  spanProcessor?: SpanProcessor;
}
