import type { Envelope } from '@formcast/contracts';
import { isAppError, type Logger } from '@formcast/platform';

/** What may be logged about a message: never its payload, which can carry file bytes. */
export function messageFields(envelope: Envelope): Record<string, unknown> {
  return { type: envelope.type, messageId: envelope.id, requestId: envelope.requestId, orgId: envelope.orgId };
}

/**
 * A failed handler. An AppError is an outcome the handler chose (a command answering
 * not_found is routine, so `appErrorLevel` lets the caller say how loud); anything else
 * is a bug and is logged as an error with its stack.
 */
export function logHandlerFailure(
  logger: Logger,
  error: unknown,
  fields: Record<string, unknown>,
  message: string,
  appErrorLevel: 'debug' | 'warn',
): void {
  if (isAppError(error)) logger[appErrorLevel]({ ...fields, code: error.code }, message);
  else logger.error({ ...fields, err: error }, message);
}
