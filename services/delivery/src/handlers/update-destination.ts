import type { CommandHandler } from '@formcast/bus';
import { updateDestinationPayload, type DestinationDetailView } from '@formcast/contracts';
import { checkTemplates, destinationChange } from '../domain/destination-rules';
import { toDestinationDetailView } from '../domain/views';
import { checkTransport } from './check-transport';
import type { DeliveryDeps } from './deps';
import { destinationCommand } from './form-command';

/** PUT /api/forms/<form_id>/destinations/<id>: description, active, and its own transport's parameters. */
export const updateDestination =
  (deps: DeliveryDeps): CommandHandler =>
  async (command): Promise<DestinationDetailView> => {
    const { orgId, input, destination: current } = await destinationCommand(deps, command, updateDestinationPayload);
    const change = destinationChange(current, input);
    checkTemplates(current.format, change.formatParameters, change.transport);
    if (change.transport) await checkTransport(deps, command, orgId, change.transport);
    const updated = await deps.store.destinations.updateDestination(orgId, input.formId, input.destinationId, change);
    // Made active again: what it held is due now.
    if (change.active && !current.active) deps.deliveriesDue();
    return toDestinationDetailView(updated);
  };
