import { runServiceAlone } from '@formcast/runtime';
import { FirebaseNotificationSender, notifierPrefetch, startNotifier } from '@formcast/notifier';
import { fixedTokenCredential, LocalFcmAgent, standInProjectId } from '../../../test/support/fcm-stand-in';

/**
 * S5's notifier: exactly `services/notifier/dist/main.js` (settings from the environment,
 * AMQP_PREFIX, HEALTH_PORT, graceful stop), except that FCM is the tests' stand-in on the
 * local port BENCH_FCM_PORT, reached through firebase-admin with a fixed access token
 * (main.ts can only reach Google).
 */
const fcmPort = Number(process.env.BENCH_FCM_PORT);

runServiceAlone('notifier', (context) =>
  startNotifier(context, {
    sender: new FirebaseNotificationSender({
      credential: fixedTokenCredential(),
      projectId: standInProjectId,
      httpAgent: new LocalFcmAgent(fcmPort, { keepAlive: true, maxSockets: 256 }),
    }),
  }),
  { prefetch: notifierPrefetch },
);

// Orphaned (the bench process died): stop as on SIGTERM.
process.once('disconnect', () => process.kill(process.pid, 'SIGTERM'));
