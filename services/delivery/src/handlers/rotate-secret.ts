import type { CommandHandler } from '@formcast/bus';
import { rotateDestinationSecretPayload, type DestinationWithSecretView } from '@formcast/contracts';
import { toDestinationWithSecretView } from '../domain/views';
import type { DeliveryDeps } from './deps';
import { formCommand } from './form-command';

/** A new signing secret, shown once; the old one signs beside it for `overlap_seconds` (a day by default). */
export const rotateSecret =
  (deps: DeliveryDeps): CommandHandler =>
  async (command): Promise<DestinationWithSecretView> => {
    const { orgId, input } = await formCommand(deps, command, rotateDestinationSecretPayload);
    const rotated = await deps.store.destinations.rotateSecret(orgId, input.formId, input.destinationId, input.overlap_seconds * 1000, command.id);
    return toDestinationWithSecretView(rotated);
  };
