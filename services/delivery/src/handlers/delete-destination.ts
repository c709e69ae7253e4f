import type { CommandHandler } from '@formcast/bus';
import { destinationIdPayload } from '@formcast/contracts';
import type { DeliveryDeps } from './deps';
import { formCommand } from './form-command';

/** DELETE /api/forms/<form_id>/destinations/<id>: with its delivery log; what was pending is not sent. */
export const deleteDestination =
  (deps: DeliveryDeps): CommandHandler =>
  async (command) => {
    const { orgId, input } = await formCommand(deps, command, destinationIdPayload);
    await deps.store.destinations.deleteDestination(orgId, input.formId, input.destinationId);
    return null;
  };
