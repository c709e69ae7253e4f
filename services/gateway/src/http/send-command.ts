import type { Request } from 'express';
import type { Bus } from '@formcast/bus';
import { createEnvelope } from '@formcast/contracts';

/** Sends a command for this request (its organization and request id) and awaits the reply. */
export type SendCommand = <T = unknown>(req: Request, type: string, payload: unknown) => Promise<T>;

export function commandSender(bus: Bus, timeoutMs: number): SendCommand {
  return (req, type, payload) =>
    bus.request(
      createEnvelope(type, payload, { orgId: req.context.orgId ?? null, requestId: req.context.requestId }),
      { timeoutMs },
    );
}
