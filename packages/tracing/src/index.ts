// Nothing here imports the SDK: start-tracing.ts requires it when tracing starts.
export type { TraceContext } from './trace-context';
export { tracingRequested } from './tracing-requested';
export { tracingOn } from './tracing-state';
export { startTracing, startTracingOrExit, type Tracing, type TracingOptions } from './start-tracing';
export { activeTraceContext, activeTraceId, inSpan, openSpan, outsideAnyTrace, SpanKind, type Attributes, type OpenSpan, type SpanParent } from './spans';
export { recordSpansInMemory, type ReadableSpan, type SpansInMemory } from './in-memory-spans';
