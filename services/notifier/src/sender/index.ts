export * from './notification-sender';
export { FirebaseNotificationSender, type FirebaseSenderOptions } from './firebase-notification-sender';
export { LoggingNotificationSender } from './logging-notification-sender';
export { NotificationDispatcher, type NotificationDispatcherOptions } from './notification-dispatcher';
export { openNotificationSender, type NotificationSenderSettings } from './open-notification-sender';
export { RetryAfterWatch, parseRetryAfter, maxRetryAfterMs } from './retry-after-watch';
