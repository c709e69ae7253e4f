import type { CommandHandler } from '@formcast/bus';
import { listDeliveriesPayload, type DeliveryListView } from '@formcast/contracts';
import { toDeliveryListView } from '../domain/views';
import type { DeliveryDeps } from './deps';
import { formCommand } from './form-command';

/** A destination's delivery log: newest first, each delivery with its attempts. */
export const listDeliveries =
  (deps: DeliveryDeps): CommandHandler =>
  async (command): Promise<DeliveryListView> => {
    const { orgId, input } = await formCommand(deps, command, listDeliveriesPayload);
    const page = await deps.store.queue.listDeliveries(orgId, input.formId, input.destinationId, {
      offset: (input.page - 1) * input.per_page,
      limit: input.per_page,
    });
    return toDeliveryListView(page, input.page, input.per_page);
  };
