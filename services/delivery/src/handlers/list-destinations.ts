import type { CommandHandler } from '@formcast/bus';
import { formDestinationsPayload, type DestinationView } from '@formcast/contracts';
import { toDestinationView } from '../domain/views';
import type { DeliveryDeps } from './deps';
import { formCommand } from './form-command';

/** GET /api/forms/<form_id>/destinations: ascending by id. */
export const listDestinations =
  (deps: DeliveryDeps): CommandHandler =>
  async (command): Promise<DestinationView[]> => {
    const { orgId, input } = await formCommand(deps, command, formDestinationsPayload);
    return (await deps.store.destinations.listDestinations(orgId, input.formId)).map(toDestinationView);
  };
