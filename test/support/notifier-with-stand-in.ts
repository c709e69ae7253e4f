import { Redis } from 'ioredis';
import type { Bus } from '@formcast/bus';
import { FirebaseNotificationSender, startNotifier } from '@formcast/notifier';
import type { ServiceStarter } from '@formcast/platform';
import { uniqueName } from '@formcast/testing';
import { FcmStandIn, fixedTokenCredential } from './fcm-stand-in';

export const testRedisUrl = process.env['REDIS_URL'] || 'redis://127.0.0.1:6379';

export interface NotifierWithStandIn {
  /** A notifier starter sending through the real firebase-admin SDK to the stand-in. */
  starter: ServiceStarter<Bus>;
  /** The FCM stand-in (started by the beforeAll this registers). */
  standIn(): FcmStandIn;
  /** Closes the stand-in and deletes the run's badge keys: register with afterAll after useSystem, so it runs once the system has stopped. */
  cleanUp(): Promise<void>;
}

/**
 * A notifier whose notifications reach an FCM stand-in, its Redis badge keys (rabbitmq mode)
 * under a prefix of the suite's own. Registers the beforeAll that starts the stand-in.
 */
export function notifierWithStandIn(name: string): NotifierWithStandIn {
  let standIn: FcmStandIn | undefined;
  const keyPrefix = `${uniqueName(name)}:`;
  beforeAll(async () => {
    standIn = await FcmStandIn.start();
  });
  return {
    starter: (context) =>
      startNotifier(context, {
        sender: new FirebaseNotificationSender({ credential: fixedTokenCredential(), projectId: standIn!.projectId, httpAgent: standIn!.agent() }),
        redisKeyPrefix: keyPrefix,
      }),
    standIn: () => standIn!,
    async cleanUp() {
      await standIn?.close();
      const redis = new Redis(testRedisUrl);
      const keys = await redis.keys(`${keyPrefix}*`);
      if (keys.length > 0) await redis.del(...keys);
      await redis.quit();
    },
  };
}
