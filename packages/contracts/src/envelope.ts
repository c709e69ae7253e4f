import { randomUUID } from 'node:crypto';
import { z } from 'zod';

/** The one message shape on the bus, for commands and events alike. */
export interface Envelope<P = unknown> {
  id: string;
  type: string;
  occurredAt: string;
  orgId: number | null;
  requestId: string;
  payload: P;
  /**
   * Bytes carried beside the payload, never inside its JSON (a resource's file): the AMQP
   * adapter sends them raw in the same message, the in-process bus hands the same Buffer
   * over. Treat as read-only.
   */
  attachment?: Buffer;
  /**
   * The request's Idempotency-Key (`key`) and a hash of what the request was (`fingerprint`:
   * method, path and body), set by the gateway on the commands of a POST carrying the header.
   * Only the create commands' handlers read it (see @formcast/idempotency).
   */
  idempotency?: Idempotency;
  /**
   * The W3C trace context of the span that sent this message (the bus's client or producer
   * span), so the receiver's span joins the same trace. Present only while tracing is on
   * (see @formcast/tracing); an event keeps it in the outbox until it is published.
   */
  traceContext?: TraceContext;
}

export interface TraceContext {
  traceparent: string;
  tracestate?: string;
}

export interface Idempotency {
  key: string;
  fingerprint: string;
}

export const idempotencySchema = z.object({ key: z.string().min(1), fingerprint: z.string().min(1) });

export const traceContextSchema = z.object({ traceparent: z.string().min(1), tracestate: z.string().optional() });

export const envelopeSchema = z.object({
  id: z.string().min(1),
  type: z.string().min(1),
  occurredAt: z.string(),
  orgId: z.number().int().nullable(),
  requestId: z.string(),
  payload: z.unknown(),
  attachment: z.instanceof(Buffer).optional(),
  idempotency: idempotencySchema.optional(),
  traceContext: traceContextSchema.optional(),
});

export function createEnvelope<P>(
  type: string,
  payload: P,
  context: { orgId?: number | null; requestId?: string; idempotency?: Idempotency } = {},
  attachment?: Buffer,
): Envelope<P> {
  const envelope: Envelope<P> = {
    id: randomUUID(),
    type,
    occurredAt: new Date().toISOString(),
    orgId: context.orgId ?? null,
    requestId: context.requestId ?? randomUUID(),
    payload,
  };
  if (attachment) envelope.attachment = attachment;
  if (context.idempotency) envelope.idempotency = context.idempotency;
  return envelope;
}
