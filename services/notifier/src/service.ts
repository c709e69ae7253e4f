import { join } from 'node:path';
import type { Bus } from '@formcast/bus';
import { notifierCommands, pushEvents } from '@formcast/contracts';
import { runningService, type Logger, type RunningService, type ServiceStarter, type Settings } from '@formcast/platform';
import type { NotifierDeps } from './handlers/deps';
import { getBadge } from './handlers/get-badge';
import { recordOneshotEvent } from './handlers/record-oneshot-event';
import { NotificationDispatcher } from './sender/notification-dispatcher';
import type { NotificationSender } from './sender/notification-sender';
import { openNotificationSender } from './sender/open-notification-sender';
import { openBadgeStore } from './store/open-badge-store';

export const notifierServiceName = 'notifier';

/**
 * Events a notifier process takes from RabbitMQ at once. Its handlers mostly wait (for a
 * batch to go to FCM), and FCM takes 500 messages a request: with the default 32, a batch
 * could never hold more than 32.
 */
export const notifierPrefetch = 256;

/** Consumes the push events and serves badge queries on the bus. */
export function registerNotifierService(bus: Bus, deps: NotifierDeps): void {
  for (const type of Object.values(pushEvents)) {
    bus.subscribe(notifierServiceName, type, recordOneshotEvent(deps, type));
  }
  bus.handleCommand(notifierServiceName, notifierCommands.getBadge, getBadge(deps));
}

export interface NotifierOptions {
  /**
   * The sender to use instead of the one the settings choose; the notifier closes it when
   * it stops. Tests give a FirebaseNotificationSender whose agent leads to an FCM stand-in.
   */
  sender?: NotificationSender;
  /** Redis only: put before every key (default `formcast:badges:`). */
  redisKeyPrefix?: string;
}

/**
 * The notifier on its settings' adapters: badges in Redis when REDIS_URL is set, else
 * SQLite under DATA_DIR; FCM through firebase-admin when credentials are set, else logged.
 */
export async function startNotifier(
  { bus, settings, logger }: { bus: Bus; settings: Settings; logger: Logger },
  options: NotifierOptions = {},
): Promise<RunningService> {
  const log = logger.child({ service: notifierServiceName });
  const badges = await openBadgeStore({
    redisUrl: settings.REDIS_URL,
    sqliteFile: join(settings.DATA_DIR, 'notifier.sqlite'),
    redisKeyPrefix: options.redisKeyPrefix,
    tombstoneTtlMs: settings.BADGE_TOMBSTONE_TTL_HOURS * 60 * 60 * 1000,
    logger: log,
  });
  let sender: NotificationSender;
  try {
    sender = options.sender ?? openNotificationSender(settings, log);
  } catch (error) {
    await badges.close();
    throw error;
  }
  const notifications = new NotificationDispatcher(sender, { logger: log, guard: badges.sendGuard?.() });
  registerNotifierService(bus, { badges, notifications, bus, logger: log });
  log.info({ notifications: sender.description }, 'notifier ready');
  return runningService(notifierServiceName, () => badges.ping(), [() => notifications.close(), () => sender.close(), () => badges.close()]);
}

/** What embedded mode and main.ts start. */
export const startNotifierService: ServiceStarter<Bus> = (context) => startNotifier(context);
