import type { Request } from 'express';
import type { Bus } from '@formcast/bus';
import { createEnvelope } from '@formcast/contracts';
import { nextCommandIdempotency } from './idempotency-key';

/**
 * Sends a command for this request (its organization and request id) and awaits the reply.
 * `attachment`: bytes that travel beside the payload (see Envelope.attachment).
 */
export type SendCommand = <T = unknown>(req: Request, type: string, payload: unknown, attachment?: Buffer) => Promise<T>;

/** As SendCommand, answering also the bytes the reply carried beside its value (a file to download). */
export type FetchWithAttachment = <T = unknown>(req: Request, type: string, payload: unknown) => Promise<{ value: T; attachment?: Buffer }>;

/** A command for this request: its organization, request id and Idempotency-Key. */
function commandFor(req: Request, type: string, payload: unknown, attachment?: Buffer) {
  const context = { orgId: req.context.orgId ?? null, requestId: req.context.requestId };
  const idempotency = nextCommandIdempotency(req, payload, attachment);
  return createEnvelope(type, payload, idempotency ? { ...context, idempotency } : context, attachment);
}

export function commandSender(bus: Bus, timeoutMs: number): SendCommand {
  // async: a refused Idempotency-Key rejects, as every other failure of a send does.
  return async (req, type, payload, attachment) => bus.request(commandFor(req, type, payload, attachment), { timeoutMs });
}

export function attachmentFetcher(bus: Bus, timeoutMs: number): FetchWithAttachment {
  return async (req, type, payload) => bus.requestWithAttachment(commandFor(req, type, payload), { timeoutMs });
}
