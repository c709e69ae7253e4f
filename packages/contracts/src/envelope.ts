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
}

export const envelopeSchema = z.object({
  id: z.string().min(1),
  type: z.string().min(1),
  occurredAt: z.string(),
  orgId: z.number().int().nullable(),
  requestId: z.string(),
  payload: z.unknown(),
  attachment: z.instanceof(Buffer).optional(),
});

export function createEnvelope<P>(
  type: string,
  payload: P,
  context: { orgId?: number | null; requestId?: string } = {},
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
  return envelope;
}
