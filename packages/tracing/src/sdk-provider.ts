import { context, propagation, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { detectResources, envDetector, resourceFromAttributes } from '@opentelemetry/resources';
import { BasicTracerProvider, BatchSpanProcessor, ConsoleSpanExporter, type SpanExporter, type SpanProcessor } from '@opentelemetry/sdk-trace-base';
import { ATTR_SERVICE_NAME, ATTR_SERVICE_VERSION } from '@opentelemetry/semantic-conventions';
import type { TracingOptions } from './start-tracing';
import { traceExporterNames } from './tracing-requested';

/**
 * The SDK's half of startTracing: loaded only when tracing starts. Manual spans only (no
 * require hooks on http, express or amqplib): the bus, the gateway and the stores open
 * their few spans themselves.
 */
export function installTracerProvider(options: TracingOptions & { env: NodeJS.ProcessEnv }): { shutdown(): Promise<void> } {
  const processors = options.spanProcessor ? [options.spanProcessor] : exportingProcessors(options.env);
  const resource = resourceFromAttributes({ [ATTR_SERVICE_NAME]: options.serviceName, [ATTR_SERVICE_VERSION]: '0.1.0' }).merge(
    // OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES, which win.
    detectResources({ detectors: [envDetector] }),
  );
  const provider = new BasicTracerProvider({ resource, spanProcessors: processors });
  const contextManager = new AsyncLocalStorageContextManager().enable();
  context.setGlobalContextManager(contextManager);
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  trace.setGlobalTracerProvider(provider);
  return {
    async shutdown() {
      try {
        await provider.shutdown();
      } finally {
        trace.disable();
        propagation.disable();
        context.disable();
      }
    },
  };
}

function exportingProcessors(env: NodeJS.ProcessEnv): SpanProcessor[] {
  const names = traceExporterNames(env);
  return (names.length > 0 ? names : ['otlp']).map((name) => new BatchSpanProcessor(exporterNamed(name, env)));
}

function exporterNamed(name: string, env: NodeJS.ProcessEnv): SpanExporter {
  if (name === 'console') return new ConsoleSpanExporter();
  if (name !== 'otlp') throw new Error(`OTEL_TRACES_EXPORTER: ${name} is not one Formcast has (otlp, console, none)`);
  const protocol = (env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL ?? env.OTEL_EXPORTER_OTLP_PROTOCOL ?? 'http/protobuf').trim();
  // Only the exporter asked for is loaded.
  if (protocol === 'http/protobuf') {
    const { OTLPTraceExporter } = require('@opentelemetry/exporter-trace-otlp-proto') as typeof import('@opentelemetry/exporter-trace-otlp-proto');
    return new OTLPTraceExporter();
  }
  if (protocol === 'http/json') {
    const { OTLPTraceExporter } = require('@opentelemetry/exporter-trace-otlp-http') as typeof import('@opentelemetry/exporter-trace-otlp-http');
    return new OTLPTraceExporter();
  }
  throw new Error(`OTEL_EXPORTER_OTLP_PROTOCOL: ${protocol} is not one Formcast has (http/protobuf, http/json)`);
}
