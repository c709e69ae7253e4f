import type { TokenMessage } from 'firebase-admin/messaging';
import type { DeviceNotification } from './device-notification';

/**
 * How long FCM (and APNs) keep a notification for a device that is offline: a week, so a
 * device switched off over a holiday still gets its current badge; the collapse key means
 * it only ever gets the latest one.
 */
export const notificationTtlMs = 7 * 24 * 60 * 60 * 1000;

/** One per device (`android.collapseKey`, `apns-collapse-id`, Android tag): a newer notification replaces an older one. */
export function collapseKeyOf(notification: DeviceNotification): string {
  return `formcast-badge-${notification.orgId}-${notification.deviceId}`;
}

/**
 * The FCM message for a notification. Both kinds carry the badge (`apns.payload.aps.badge`,
 * and `data.badge` for the app); an announcement is a visible notification (title: form
 * name, body: description) that also sets `android.notification.notificationCount`, so it
 * shows while the app is closed. A badge update has no alert: on iOS a badge-only push, on
 * Android a data message at normal priority (any Android `notification` block would show
 * in the tray).
 */
export function fcmMessage(notification: DeviceNotification, nowMs: number): TokenMessage {
  const collapseKey = collapseKeyOf(notification);
  const { badge, announces } = notification;
  const apnsHeaders = {
    'apns-collapse-id': collapseKey,
    'apns-expiration': String(Math.floor((nowMs + notificationTtlMs) / 1000)),
    // A badge-only push is still of the alert type for APNs.
    'apns-push-type': 'alert',
    'apns-priority': announces ? '10' : '5',
  };
  const data = {
    kind: announces ? 'oneshot' : 'badge',
    badge: String(badge),
    device_identifier: notification.deviceIdentifier,
  };
  if (!announces) {
    return {
      token: notification.pushToken,
      data,
      android: { collapseKey, ttl: notificationTtlMs, priority: 'normal' },
      apns: { headers: apnsHeaders, payload: { aps: { badge } } },
    };
  }
  return {
    token: notification.pushToken,
    notification: announces.description ? { title: announces.name, body: announces.description } : { title: announces.name },
    data: { ...data, oneshot_id: String(announces.id), form_namespace: announces.namespace },
    android: {
      collapseKey,
      ttl: notificationTtlMs,
      priority: 'high',
      notification: { notificationCount: badge, tag: collapseKey },
    },
    apns: { headers: apnsHeaders, payload: { aps: { badge, sound: 'default' } } },
  };
}
