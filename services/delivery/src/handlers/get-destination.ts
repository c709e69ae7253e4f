import type { CommandHandler } from '@formcast/bus';
import { destinationIdPayload, type DestinationDetailView } from '@formcast/contracts';
import { toDestinationDetailView } from '../domain/views';
import type { DeliveryDeps } from './deps';
import { destinationCommand } from './form-command';

/** GET /api/forms/<form_id>/destinations/<id>: its parameters nested by name; never its secret. */
export const getDestination =
  (deps: DeliveryDeps): CommandHandler =>
  async (command): Promise<DestinationDetailView> => {
    const { destination } = await destinationCommand(deps, command, destinationIdPayload);
    return toDestinationDetailView(destination);
  };
