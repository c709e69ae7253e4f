import type { CommandHandler } from '@formcast/bus';
import { redeliverPayload, type DeliveryView } from '@formcast/contracts';
import { AppError } from '@formcast/platform';
import { toDeliveryView } from '../domain/views';
import type { DeliveryDeps } from './deps';
import { destinationCommand } from './form-command';

/**
 * POST …/deliveries/<id>/redeliver: sent again at once, with a fresh schedule, the same
 * webhook-id and the same body. An inactive destination sends nothing: 409 until it is
 * made active.
 */
export const redeliver =
  (deps: DeliveryDeps): CommandHandler =>
  async (command): Promise<DeliveryView> => {
    const { orgId, input, destination } = await destinationCommand(deps, command, redeliverPayload);
    if (!destination.active) {
      throw new AppError('conflict', `Destination ${destination.id} is inactive; make it active (PUT "active": true) to deliver again`);
    }
    const delivery = await deps.store.queue.redeliver(orgId, input.formId, input.destinationId, input.deliveryId, deps.now());
    deps.deliveriesDue();
    return toDeliveryView(delivery);
  };
