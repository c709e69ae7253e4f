import type { Envelope } from '@formcast/contracts';
import { parsePayload, requireOrgId } from '@formcast/platform';
import type { z } from 'zod';
import type { Destination } from '../domain/records';
import { destinationNotFound } from '../store/store-errors';
import type { DeliveryDeps } from './deps';

/**
 * A destination command's organization and payload, once the form it names is known to
 * be the organization's (AppError('not_found') otherwise, before anything else is read).
 */
export async function formCommand<S extends z.ZodType<{ formId: number }>>(
  deps: DeliveryDeps,
  command: Envelope,
  schema: S,
): Promise<{ orgId: number; input: z.infer<S> }> {
  const orgId = requireOrgId(command);
  const input = parsePayload(schema, command.payload);
  await deps.forms.requireForm(orgId, input.formId, command.requestId);
  return { orgId, input };
}

/** As `formCommand`, with the destination the payload names (AppError('not_found') when the form has none such). */
export async function destinationCommand<S extends z.ZodType<{ formId: number; destinationId: number }>>(
  deps: DeliveryDeps,
  command: Envelope,
  schema: S,
): Promise<{ orgId: number; input: z.infer<S>; destination: Destination }> {
  const { orgId, input } = await formCommand(deps, command, schema);
  const destination = await deps.store.destinations.getDestination(orgId, input.formId, input.destinationId);
  if (!destination) throw destinationNotFound(input.destinationId);
  return { orgId, input, destination };
}
