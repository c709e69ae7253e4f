/**
 * A span's W3C trace context as it crosses a process boundary (the bus envelope, an outbox
 * row): the `traceparent` header's value and, when a vendor set one, `tracestate`.
 */
export interface TraceContext {
  traceparent: string;
  tracestate?: string;
}
