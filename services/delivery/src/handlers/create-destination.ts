import type { CommandHandler } from '@formcast/bus';
import { createDestinationPayload, type DestinationWithSecretView } from '@formcast/contracts';
import { checkTemplates, newDestination } from '../domain/destination-rules';
import { toDestinationWithSecretView } from '../domain/views';
import { checkTransport } from './check-transport';
import type { DeliveryDeps } from './deps';
import { formCommand } from './form-command';

/** POST /api/forms/<form_id>/destinations: active at once; the answer is the only one showing its secret. */
export const createDestination =
  (deps: DeliveryDeps): CommandHandler =>
  async (command): Promise<DestinationWithSecretView> => {
    const { orgId, input } = await formCommand(deps, command, createDestinationPayload);
    const destination = newDestination(orgId, input);
    checkTemplates(destination.format, destination.formatParameters, destination.transport);
    await checkTransport(deps, command, orgId, destination.transport);
    return toDestinationWithSecretView(await deps.store.createDestination(destination, command.id));
  };
