import type { Logger } from '@formcast/platform';
import type { DeviceNotification } from '../domain/device-notification';
import { fcmMessage } from '../domain/fcm-message';
import type { SendOutcome } from '../domain/send-outcome';
import type { NotificationSender } from './notification-sender';

/**
 * Embedded mode without FCM credentials: logs each notification (the FCM message it would
 * send, token redacted) and counts it as sent.
 */
export class LoggingNotificationSender implements NotificationSender {
  readonly description = 'log';
  private readonly logger: Logger;

  constructor(
    logger: Logger,
    private readonly now: () => number = Date.now,
  ) {
    this.logger = logger.child({ component: 'notifications' });
  }

  async sendEach(notifications: DeviceNotification[]): Promise<SendOutcome[]> {
    const now = this.now();
    return notifications.map((notification) => {
      this.logger.info(
        {
          orgId: notification.orgId,
          deviceId: notification.deviceId,
          event: notification.event,
          badge: notification.badge,
          message: fcmMessage(notification, now),
        },
        'notification (not sent: no FCM credentials configured)',
      );
      return { status: 'sent' };
    });
  }

  async close(): Promise<void> {}
}
