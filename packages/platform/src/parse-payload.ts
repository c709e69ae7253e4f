import type { Envelope } from '@formcast/contracts';
import type { z } from 'zod';
import { AppError } from './app-error';

/** Validates a message payload; a mismatch is AppError('invalid') naming the field. */
export function parsePayload<S extends z.ZodType>(schema: S, payload: unknown): z.infer<S> {
  const result = schema.safeParse(payload);
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  const field = issue.path.map(String).join('.');
  throw new AppError('invalid', field ? `${field}: ${issue.message}` : issue.message);
}

/** The organization a command acts for; commands without one are refused. */
export function requireOrgId(envelope: Envelope): number {
  if (typeof envelope.orgId !== 'number') throw new AppError('unauthorized', 'No organization');
  return envelope.orgId;
}
