import { trace, type Tracer } from '@opentelemetry/api';

let active = false;
let tracer: Tracer | undefined;

/** True once an SDK is installed (startTracing); every span helper is a plain call through before that. */
export function tracingOn(): boolean {
  return active;
}

/** The instrumentation scope of Formcast's own spans. */
export const formcastScope = { name: 'formcast' };

/** The tracer of Formcast's own spans, from the installed SDK. */
export function formcastTracer(): Tracer {
  tracer ??= trace.getTracer(formcastScope.name);
  return tracer;
}

export function markTracing(on: boolean): void {
  active = on;
  tracer = undefined;
}
