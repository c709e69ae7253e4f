/**
 * Whether the standard OTEL_* variables ask for traces to be exported: an exporter named
 * (`OTEL_TRACES_EXPORTER`, other than `none`) or an OTLP endpoint given
 * (`OTEL_EXPORTER_OTLP_ENDPOINT`, `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`), unless
 * `OTEL_SDK_DISABLED=true`. Nothing set: no tracing, and the SDK is never loaded.
 */
export function tracingRequested(env: NodeJS.ProcessEnv = process.env): boolean {
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === 'true') return false;
  const exporters = traceExporterNames(env);
  if (exporters.length > 0) return !exporters.includes('none');
  return Boolean(env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim() || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim());
}

/** `OTEL_TRACES_EXPORTER` as a list (`otlp,console`), lower-cased; empty when unset. */
export function traceExporterNames(env: NodeJS.ProcessEnv = process.env): string[] {
  return (env.OTEL_TRACES_EXPORTER ?? '')
    .split(',')
    .map((name) => name.trim().toLowerCase())
    .filter((name) => name.length > 0);
}
