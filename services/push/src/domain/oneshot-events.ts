import { createEnvelope, pushEvents, type Envelope, type OneshotEventPayload, type PushEventType } from '@formcast/contracts';
import { isReleased } from './oneshot-lifecycle';
import type { Oneshot } from './records';

/**
 * Builds the event of a transition; the store calls it inside the write, with the oneshot as
 * saved, and writes no event when it answers null.
 */
export type OneshotEventFactory = (oneshot: Oneshot) => Envelope<OneshotEventPayload> | null;

/**
 * The event of a transition, for the notifier (badge, notification). A dispatch not yet
 * released is unknown to its device: its creation, updates and revocation announce nothing,
 * and its release announces it as created.
 */
export function oneshotEvent(type: PushEventType, pushToken: string | null, requestId: string): OneshotEventFactory {
  return (oneshot) =>
    !isReleased(oneshot) ? null : createEnvelope<OneshotEventPayload>(
      type,
      {
        oneshotId: oneshot.id,
        orgId: oneshot.orgId,
        deviceId: oneshot.deviceId,
        deviceIdentifier: oneshot.deviceIdentifier,
        pushToken,
        name: oneshot.name,
        description: oneshot.description,
        namespace: oneshot.namespace,
      },
      { orgId: oneshot.orgId, requestId },
    );
}

export { pushEvents };
