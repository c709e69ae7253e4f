import type { TracingOptions } from './tracing-options';
import { markTracing, tracingOn } from './tracing-state';
import { tracingRequested } from './tracing-requested';

export type { TracingOptions } from './tracing-options';

export interface Tracing {
  /** Exports what is left, then turns tracing off. */
  stop(): Promise<void>;
}

/** What sdk-provider.ts exports; required only when tracing starts, so a process without OTEL_* never loads the SDK. */
interface SdkProviderModule {
  installTracerProvider(options: TracingOptions & { env: NodeJS.ProcessEnv }): { shutdown(): Promise<void> };
}

/**
 * Installs the OpenTelemetry SDK (tracer provider, AsyncLocalStorage context, W3C trace
 * context propagation, the exporters OTEL_* names) when the environment asks for traces
 * (tracingRequested) or a span processor is given; null, and nothing loaded, otherwise.
 * A bad setting (an exporter or protocol we do not have) throws, naming it.
 */
export function startTracing(options: TracingOptions): Tracing | null {
  const env = options.env ?? process.env;
  if (!options.spanProcessor && !tracingRequested(env)) return null;
  if (tracingOn()) throw new Error('Tracing is already started in this process');
  // Loaded on demand, like the Mongo adapters (docs/architecture.md).
  const sdk = require('./sdk-provider') as SdkProviderModule;
  const provider = sdk.installTracerProvider({ ...options, env });
  markTracing(true);
  let stopping: Promise<void> | undefined;
  return {
    stop() {
      stopping ??= provider.shutdown().finally(() => markTracing(false));
      return stopping;
    },
  };
}

/** startTracing from the process's OTEL_* variables, for a main: a bad setting stops the process with its message. */
export function startTracingOrExit(serviceName: string): Tracing | null {
  try {
    return startTracing({ serviceName });
  } catch (error) {
    process.stderr.write(`Cannot start tracing: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  }
}
