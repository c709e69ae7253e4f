import type { Envelope } from '@formcast/contracts';
import { AppError } from '@formcast/platform';

/**
 * What is left for the reply's way back and the store's write: a command that has not
 * committed this long before the gateway's COMMAND_TIMEOUT_MS answers timeout instead.
 */
export const replyMarginMs = 1000;

/**
 * Refuses to commit a command whose request has been (or is about to be) answered 504: the
 * gateway gives up COMMAND_TIMEOUT_MS after it sent the command (`occurredAt`), and a client
 * that retries on 504 would otherwise find the first create stored as well as its retry's.
 * Called after the slow checks (a spreadsheet's summary), just before the write.
 */
export function requireAnsweredInTime(command: Envelope, commandTimeoutMs: number | undefined, now = Date.now()): void {
  if (commandTimeoutMs === undefined) return;
  const sent = Date.parse(command.occurredAt);
  if (Number.isNaN(sent)) return;
  if (now > sent + commandTimeoutMs - replyMarginMs) {
    throw new AppError('timeout', `The request took longer than COMMAND_TIMEOUT_MS (${commandTimeoutMs} ms) to check; nothing was stored`);
  }
}
