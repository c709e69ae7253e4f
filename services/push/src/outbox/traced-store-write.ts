import type { Envelope } from '@formcast/contracts';
import { activeTraceContext, inSpan, SpanKind } from '@formcast/tracing';

/**
 * A store write in a span of its own (`push.store <operation>`), child of the command's span.
 * `write` is handed `carryTrace`: an event factory wrapped with it makes events that carry
 * this span's trace context into the outbox (the envelope is stored whole), so the relay's
 * publish, however much later, joins the request's trace. The factory may run on a later
 * turn (SQLite group commit), so the context is taken here, not where it runs. Off: `write`
 * as it is, the factories untouched.
 */
export function tracedStoreWrite<T>(operation: string, write: (carryTrace: CarryTrace) => Promise<T>): Promise<T> {
  return inSpan(`push.store ${operation}`, SpanKind.INTERNAL, () => write(carryActiveTrace()), undefined, { 'db.operation.name': operation });
}

/** Wraps an event factory (its type kept) so the events it makes carry the write's trace context. */
export type CarryTrace = <F extends (input: never) => Envelope | null>(factory: F) => F;

function carryActiveTrace(): CarryTrace {
  const traceContext = activeTraceContext();
  return <F extends (input: never) => Envelope | null>(factory: F): F => {
    if (!traceContext) return factory;
    return ((input: never) => {
      const event = factory(input);
      if (event) event.traceContext = traceContext;
      return event;
    }) as F;
  };
}
