import type { Bus } from '@formcast/bus';
import { createEnvelope, pushCommands, type ErrorCode, type OneshotCreatedView } from '@formcast/contracts';
import { isAppError } from '@formcast/platform';
import { dispatchCommandId } from '../domain/command-id';
import type { Delivery } from '../domain/records';
import { keptAnswerBytes } from './http-sender';

/** What one push command came to. */
export interface DispatchAnswer {
  durationMs: number;
  /** The created oneshot as push answered it (JSON, first 1 KB); null on an error. */
  responseBody: string | null;
  /** `<code>: <message>` of push's error; null when it pushed. */
  error: string | null;
  errorCode: ErrorCode | null;
}

/**
 * Sends a dispatch delivery's push create command. Its envelope id is derived from the
 * destination and the submission, so every attempt, every replica and every duplicate of
 * the submission's event sends the same command, which push applies once.
 */
export async function sendDispatch(bus: Bus, delivery: Delivery, timeoutMs: number): Promise<DispatchAnswer> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const command = {
    ...createEnvelope(pushCommands.createOneshot, JSON.parse(delivery.body) as unknown, { orgId: delivery.orgId }),
    id: dispatchCommandId(delivery.destinationId, delivery.submissionId),
  };
  try {
    const created = await bus.request<OneshotCreatedView>(command, { timeoutMs });
    return { durationMs: elapsed(), responseBody: JSON.stringify(created).slice(0, keptAnswerBytes), error: null, errorCode: null };
  } catch (error) {
    const code: ErrorCode = isAppError(error) ? error.code : 'internal';
    const message = error instanceof Error ? error.message : String(error);
    return { durationMs: elapsed(), responseBody: null, error: `${code}: ${message}`, errorCode: code };
  }
}
