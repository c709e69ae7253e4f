import type { DeviceNotification } from '../domain/device-notification';
import type { SendOutcome } from '../domain/send-outcome';

/** FCM takes at most this many messages per `sendEach`. */
export const maxSendBatch = 500;

/**
 * The sender port: hands notifications to FCM (or whatever stands for it). Adapters:
 * `FirebaseNotificationSender` (firebase-admin) and `LoggingNotificationSender` (embedded
 * mode without credentials).
 */
export interface NotificationSender {
  /** Names the adapter in logs, e.g. `fcm (project acme-forms)`. */
  readonly description: string;
  /**
   * Sends each notification once (at most `maxSendBatch`); resolves with one outcome per
   * notification, in order. A failure of one, or of all, is an outcome, never a rejection.
   */
  sendEach(notifications: DeviceNotification[]): Promise<SendOutcome[]>;
  /** Releases connections; calling it again does nothing. */
  close(): Promise<void>;
}
