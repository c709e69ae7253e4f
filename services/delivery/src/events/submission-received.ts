import type { EventHandler } from '@formcast/bus';
import { submissionReceivedPayload } from '@formcast/contracts';
import { parsePayload } from '@formcast/platform';
import { newDelivery } from '../domain/render-delivery';
import type { DeliveryDeps } from '../handlers/deps';

/**
 * `push.submission.received`: one delivery for each active destination of the form, its
 * body rendered now. The event comes at least once; a delivery exists once per
 * destination and submission, so a repeat makes nothing.
 */
export const submissionReceived =
  (deps: DeliveryDeps): EventHandler =>
  async (event) => {
    const submission = parsePayload(submissionReceivedPayload, event.payload);
    const destinations = await deps.store.activeDestinations(submission.orgId, submission.formId);
    if (destinations.length === 0) return;
    const created = await deps.store.createDeliveries(
      destinations.map((destination) => newDelivery(submission, destination)),
      deps.now(),
    );
    if (created > 0) deps.deliveriesDue();
  };
