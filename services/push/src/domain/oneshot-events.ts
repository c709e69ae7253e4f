import { createEnvelope, pushEvents, type Envelope, type OneshotEventPayload, type PushEventType } from '@formcast/contracts';
import type { Oneshot } from './records';

/** Builds the event of a transition; the store calls it inside the write, with the count after it. */
export type OneshotEventFactory = (oneshot: Oneshot, outstandingCount: number) => Envelope<OneshotEventPayload>;

export function oneshotEvent(type: PushEventType, pushToken: string | null, requestId: string): OneshotEventFactory {
  return (oneshot, outstandingCount) =>
    createEnvelope<OneshotEventPayload>(
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
        outstandingCount,
      },
      { orgId: oneshot.orgId, requestId },
    );
}

export { pushEvents };
