import type { OneshotEventPayload, PushEventType } from '@formcast/contracts';
import { oneshotTransitions } from './oneshot-transition';

/** The oneshot an event is about, as a notification shows it. */
export interface OneshotSummary {
  id: number;
  name: string;
  description: string;
  namespace: string;
}

/** What one device is told after one of its oneshots changed. */
export interface DeviceNotification {
  orgId: number;
  deviceId: number;
  deviceIdentifier: string;
  /** The device's FCM registration token. */
  pushToken: string;
  /** The device's badge after the change. */
  badge: number;
  /** The event reported, and its oneshot. */
  event: PushEventType;
  oneshot: OneshotSummary;
  /** The oneshot announced with a visible notification (title: its name, body: its description); null: a badge update only. */
  announces: OneshotSummary | null;
}

/**
 * Whether this handling of an event announces its oneshot (a visible alert): only an
 * announcing event (`created`) of a oneshot still outstanding, and only the one that took
 * the oneshot's announcement in the badge store, so copies of the event (the outbox sends at
 * least once) update the badge silently. One exception: the broker's redelivery of an event
 * whose handler died (a notifier killed between taking the announcement and FCM accepting
 * the message) announces again, so a kill may repeat an alert but never loses one.
 */
export function announcesOneshot(
  event: PushEventType,
  change: { outstanding: boolean; announce: boolean },
  delivery: { redelivered: boolean } = { redelivered: false },
): boolean {
  if (!oneshotTransitions[event].announces || !change.outstanding) return false;
  return change.announce || delivery.redelivered;
}

/**
 * The notification for one event, given the badge after it and whether it announces its
 * oneshot (`announcesOneshot`); null when the device has no push token (its badge is still
 * kept). Without the announcement it carries only the badge.
 */
export function notificationFor(
  event: PushEventType,
  payload: OneshotEventPayload,
  change: { badge: number; announces: boolean },
): DeviceNotification | null {
  if (!payload.pushToken) return null;
  const oneshot: OneshotSummary = {
    id: payload.oneshotId,
    name: payload.name,
    description: payload.description,
    namespace: payload.namespace,
  };
  return {
    orgId: payload.orgId,
    deviceId: payload.deviceId,
    deviceIdentifier: payload.deviceIdentifier,
    pushToken: payload.pushToken,
    badge: change.badge,
    event,
    oneshot,
    announces: change.announces ? oneshot : null,
  };
}

/** Notifications for the same device replace each other while they wait to be sent. */
export function deviceKeyOf(notification: DeviceNotification): string {
  return `${notification.orgId}:${notification.deviceId}`;
}

/**
 * One notification in place of two for the same device, `newer` having been counted after
 * `older`: the newer badge and token win, so an older badge never follows a newer one. A
 * pending announcement is kept (showing the newest badge) unless its oneshot has ended
 * since; an update of that oneshot refreshes what it shows; a newer announcement replaces it.
 */
export function mergeNotifications(older: DeviceNotification, newer: DeviceNotification): DeviceNotification {
  return { ...newer, announces: newer.announces ?? carriedAnnouncement(older.announces, newer) };
}

function carriedAnnouncement(announced: OneshotSummary | null, newer: DeviceNotification): OneshotSummary | null {
  if (!announced || announced.id !== newer.oneshot.id) return announced;
  return oneshotTransitions[newer.event].state === 'ended' ? null : newer.oneshot;
}
