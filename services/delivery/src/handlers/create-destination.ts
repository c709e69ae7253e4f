import type { CommandHandler } from '@formcast/bus';
import { createDestinationPayload, type DestinationWithSecretView } from '@formcast/contracts';
import { AppError } from '@formcast/platform';
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
    await checkDestinationCap(deps, orgId, input.formId);
    return toDestinationWithSecretView(await deps.store.destinations.createDestination(destination, command.id));
  };

/** The default of DELIVERY_MAX_DESTINATIONS_PER_FORM. */
export const defaultMaxDestinationsPerForm = 25;

/**
 * One submission is one delivery per destination: a form's destinations are capped, so one
 * submission cannot fan out into hundreds of deliveries. A count before the insert: two
 * creates racing at the cap may leave it one over, never more than the creates under way.
 */
async function checkDestinationCap(deps: DeliveryDeps, orgId: number, formId: number): Promise<void> {
  const max = deps.maxDestinationsPerForm ?? defaultMaxDestinationsPerForm;
  const existing = (await deps.store.destinations.listDestinations(orgId, formId)).length;
  if (existing >= max) {
    throw new AppError('unprocessable', `This form has ${existing} destinations, the most a form may have (DELIVERY_MAX_DESTINATIONS_PER_FORM=${max}): delete one first`);
  }
}
