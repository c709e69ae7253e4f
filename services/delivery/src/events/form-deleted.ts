import type { EventHandler } from '@formcast/bus';
import { formDeletedPayload } from '@formcast/contracts';
import { parsePayload } from '@formcast/platform';
import type { DeliveryDeps } from '../handlers/deps';

/**
 * `directory.form.deleted`: the form's destinations go, with their deliveries (what was
 * pending is not sent) and their log. The event comes at least once; a repeat finds
 * nothing to remove. An attempt already under way when it comes still ends (its outcome is
 * not recorded: the delivery is gone).
 */
export const formDeleted =
  (deps: Pick<DeliveryDeps, 'store' | 'logger'>): EventHandler =>
  async (event) => {
    const { orgId, formId } = parsePayload(formDeletedPayload, event.payload);
    const removed = await deps.store.destinations.deleteFormDestinations(orgId, formId);
    if (removed > 0) deps.logger?.info({ orgId, formId, destinations: removed }, 'removed the destinations of a deleted form');
  };
