import { z } from 'zod';

/**
 * Events of the push service, one per oneshot transition (spec section 3), published
 * through its outbox. `destroy_all` publishes one `revoked` per oneshot.
 */
export const pushEvents = {
  oneshotCreated: 'push.oneshot.created',
  oneshotUpdated: 'push.oneshot.updated',
  oneshotRevoked: 'push.oneshot.revoked',
  oneshotCompleted: 'push.oneshot.completed',
} as const;

export type PushEventType = (typeof pushEvents)[keyof typeof pushEvents];

/**
 * What every oneshot event carries: enough for the notifier to keep the badge and notify
 * the device without asking anyone. Consumers drop duplicates by the envelope id, and must
 * tolerate reordering (a `created` arriving after its `completed`).
 */
export const oneshotEventPayload = z.object({
  oneshotId: z.number().int().positive(),
  orgId: z.number().int().positive(),
  deviceId: z.number().int().positive(),
  deviceIdentifier: z.string(),
  /** The device's FCM registration token as the push service knew it; null: none. */
  pushToken: z.string().nullable(),
  name: z.string(),
  description: z.string(),
  namespace: z.string(),
});

export type OneshotEventPayload = z.infer<typeof oneshotEventPayload>;
