import { pushEvents, type PushEventType } from '@formcast/contracts';

/**
 * What a oneshot event means for its device's badge: `outstanding` (created, updated) or
 * `ended` (revoked, completed).
 */
export type OneshotState = 'outstanding' | 'ended';

export interface OneshotTransition {
  state: OneshotState;
  /** Whether the device is told with a visible notification (else: a badge update only). */
  announces: boolean;
}

/** Each push event, as the notifier sees it. */
export const oneshotTransitions: Record<PushEventType, OneshotTransition> = {
  [pushEvents.oneshotCreated]: { state: 'outstanding', announces: true },
  [pushEvents.oneshotUpdated]: { state: 'outstanding', announces: false },
  [pushEvents.oneshotRevoked]: { state: 'ended', announces: false },
  [pushEvents.oneshotCompleted]: { state: 'ended', announces: false },
};
