import type { EventHandler } from '@formcast/bus';
import { submissionReceivedPayload } from '@formcast/contracts';
import { parsePayload } from '@formcast/platform';
import { newDelivery } from '../domain/render-delivery';
import type { DeliveryDeps } from '../handlers/deps';

/**
 * `push.submission.received`: one delivery for each active destination of the form (of those it names, when it names some), its
 * body rendered now. The event comes at least once; a delivery exists once per
 * destination and submission, so a repeat makes nothing.
 */
export const submissionReceived =
  (deps: DeliveryDeps): EventHandler =>
  async (event) => {
    const submission = parsePayload(submissionReceivedPayload, event.payload);
    const active = await deps.store.destinations.activeDestinations(submission.orgId, submission.formId);
    // destination_ids (v3 API): only those the submission named.
    const named = submission.destinationIds === undefined ? undefined : new Set(submission.destinationIds);
    const destinations = named === undefined ? active : active.filter((destination) => named.has(destination.id));
    if (destinations.length === 0) return;
    const created = await deps.store.queue.createDeliveries(
      destinations.map((destination) => newDelivery(submission, destination)),
      deps.now(),
    );
    if (created > 0) deps.deliveriesDue();
  };
