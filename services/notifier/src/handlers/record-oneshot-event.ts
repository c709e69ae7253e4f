import type { EventHandler } from '@formcast/bus';
import { recordBadgeOperation } from '@formcast/metrics';
import { createEnvelope, directoryCommands, oneshotEventPayload, type Envelope, type PushEventType } from '@formcast/contracts';
import { AppError, parsePayload } from '@formcast/platform';
import { announcesOneshot, notificationFor, type DeviceNotification } from '../domain/device-notification';
import { oneshotTransitions } from '../domain/oneshot-transition';
import type { SendOutcome } from '../domain/send-outcome';
import type { NotifierDeps } from './deps';

/**
 * `push.oneshot.created`, `updated`, `revoked` and `completed`: one badge change (one Redis
 * script call), then, when the device has a push token, one notification carrying the new
 * badge. Safe to run again: the badge change is idempotent, and a oneshot is announced
 * (a visible alert) once: the badge change also takes its announcement, and a copy of the
 * event finds it taken and sends the badge silently (see `announcesOneshot`).
 *
 * FCM errors: an unregistered token is cleared in the directory; a refused message is
 * logged; both end here (the announcement stays taken). Anything retryable gives the
 * announcement back and throws, so the bus retries the event with backoff (announcing it
 * then) and dead-letters it after its last attempt.
 */
export const recordOneshotEvent =
  (deps: NotifierDeps, type: PushEventType): EventHandler =>
  async (event, delivery) => {
    const payload = parsePayload(oneshotEventPayload, event.payload);
    const device = { orgId: payload.orgId, deviceId: payload.deviceId };
    const { state, announces } = oneshotTransitions[type];
    const change = await deps.badges.record(device, payload.oneshotId, state, announces && Boolean(payload.pushToken));
    recordBadgeOperation(state === 'outstanding' ? 'record_outstanding' : 'record_ended');
    const notification = notificationFor(type, payload, { badge: change.badge, announces: announcesOneshot(type, change, delivery) });
    if (!notification) return;
    const outcome = await deps.notifications.dispatch(notification);
    if (outcome.status === 'retry' && change.announce) await deps.badges.releaseAnnouncement(device, payload.oneshotId);
    await settle(deps, event, notification, outcome);
  };

async function settle(deps: NotifierDeps, event: Envelope, notification: DeviceNotification, outcome: SendOutcome): Promise<void> {
  const fields = { eventId: event.id, type: event.type, orgId: notification.orgId, deviceId: notification.deviceId };
  switch (outcome.status) {
    case 'sent':
      return;
    case 'token_not_registered':
      await deps.bus.request(
        createEnvelope(
          directoryCommands.clearStalePushToken,
          { deviceId: notification.deviceId, pushToken: notification.pushToken },
          { orgId: notification.orgId, requestId: event.requestId },
        ),
      );
      deps.logger.info({ ...fields, code: outcome.code }, 'FCM no longer knows the push token; cleared it');
      return;
    case 'rejected':
      deps.logger.warn({ ...fields, code: outcome.code, reason: outcome.message }, 'FCM refused the notification; not retried');
      return;
    case 'retry':
      throw new AppError('unavailable', `FCM did not take the notification (${outcome.code}): ${outcome.message}`, {
        code: outcome.code,
        retryAfterMs: outcome.retryAfterMs,
      });
  }
}
