import type { Bus } from '@formcast/bus';
import type { Logger } from '@formcast/platform';
import type { NotificationDispatcher } from '../sender/notification-dispatcher';
import type { BadgeStore } from '../store/badge-store';

/** What every notifier handler is built from. */
export interface NotifierDeps {
  badges: BadgeStore;
  notifications: NotificationDispatcher;
  /** Asks other services (the directory, to clear a stale push token). */
  bus: Pick<Bus, 'request'>;
  logger: Logger;
}
