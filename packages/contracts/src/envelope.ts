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
}

export const envelopeSchema = z.object({
  id: z.string().min(1),
  type: z.string().min(1),
  occurredAt: z.string(),
  orgId: z.number().int().nullable(),
  requestId: z.string(),
  payload: z.unknown(),
});

export function createEnvelope<P>(
  type: string,
  payload: P,
  context: { orgId?: number | null; requestId?: string } = {},
): Envelope<P> {
  return {
    id: randomUUID(),
    type,
    occurredAt: new Date().toISOString(),
    orgId: context.orgId ?? null,
    requestId: context.requestId ?? randomUUID(),
    payload,
  };
}
