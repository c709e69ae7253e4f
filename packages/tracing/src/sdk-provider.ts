import { context, propagation, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { detectResources, envDetector, resourceFromAttributes, type Resource } from '@opentelemetry/resources';
import { BatchSpanProcessor, ConsoleSpanExporter, type SpanProcessor } from '@opentelemetry/sdk-trace';
import { ATTR_SERVICE_NAME, ATTR_SERVICE_VERSION } from '@opentelemetry/semantic-conventions';
import { batchSettingsFrom } from './export/batch-settings';
import { WorkerSpanProcessor } from './export/worker-span-processor';
import { FormcastTracer } from './formcast-tracer';
import type { TracingOptions } from './tracing-options';
import { formcastScope } from './tracing-state';
import { traceExporterNames } from './tracing-requested';

/**
 * The SDK's half of startTracing: loaded only when tracing starts. Manual spans only (no
 * require hooks on http, express or amqplib): the bus, the gateway and the stores open
 * their few spans themselves, from our own tracer (formcast-tracer.ts) with the SDK's
 * context manager, propagator, sampler and span processors.
 */
export function installTracerProvider(options: TracingOptions & { env: NodeJS.ProcessEnv }): { shutdown(): Promise<void> } {
  const resource = resourceFromAttributes({ [ATTR_SERVICE_NAME]: options.serviceName, [ATTR_SERVICE_VERSION]: '0.1.0' }).merge(
    // OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES, which win.
    detectResources({ detectors: [envDetector] }),
  );
  const processors = options.spanProcessor ? [options.spanProcessor] : exportingProcessors(options.env, resource);
  const provider = new FormcastTracer(resource, formcastScope, processors);
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

function exportingProcessors(env: NodeJS.ProcessEnv, resource: Resource): SpanProcessor[] {
  const names = traceExporterNames(env);
  return (names.length > 0 ? names : ['otlp']).map((name) => processorFor(name, env, resource));
}

function processorFor(name: string, env: NodeJS.ProcessEnv, resource: Resource): SpanProcessor {
  if (name === 'console') return new BatchSpanProcessor({ exporter: new ConsoleSpanExporter(), ...batchSettingsFrom(env) });
  if (name !== 'otlp') throw new Error(`OTEL_TRACES_EXPORTER: ${name} is not one Formcast has (otlp, console, none)`);
  // OTLP is exported from a worker thread (export/worker-span-processor.ts): the send, and for JSON the encoding, stay off the event loop.
  return new WorkerSpanProcessor({
    ...otlpEncoding(env),
    env,
    resourceAttributes: resource.attributes,
    scope: formcastScope,
    settings: batchSettingsFrom(env),
  });
}

/** The OTLP encoding for the protocol asked for: protobuf our own, JSON the SDK's exporter's (loaded only by the worker). */
function otlpEncoding(env: NodeJS.ProcessEnv): { encoding: 'protobuf' } | { encoding: 'json'; exporterModule: string } {
  const protocol = (env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL ?? env.OTEL_EXPORTER_OTLP_PROTOCOL ?? 'http/protobuf').trim();
  if (protocol === 'http/protobuf') return { encoding: 'protobuf' };
  if (protocol === 'http/json') return { encoding: 'json', exporterModule: require.resolve('@opentelemetry/exporter-trace-otlp-http') };
  throw new Error(`OTEL_EXPORTER_OTLP_PROTOCOL: ${protocol} is not one Formcast has (http/protobuf, http/json)`);
}
