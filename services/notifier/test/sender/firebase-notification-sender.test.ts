import { FirebaseNotificationSender } from '../../src/sender/firebase-notification-sender';
import { closedPort, FcmStandIn, fcmError, fixedTokenCredential, type FcmReply } from '../../../../test/support/fcm-stand-in';
import { describeNotificationSenderContract, type DeliveryFailure, type HandedOnMessage } from './notification-sender.contract';

const answers: Record<DeliveryFailure, FcmReply> = {
  unregistered: fcmError('UNREGISTERED'),
  invalid: fcmError('INVALID_ARGUMENT'),
  'server-error': fcmError('INTERNAL'),
};

// Through the real firebase-admin SDK, against the FCM stand-in (there is no FCM emulator).
describeNotificationSenderContract('FirebaseNotificationSender', async (now) => {
  const standIn = await FcmStandIn.start();
  const agent = standIn.agent();
  const sender = new FirebaseNotificationSender({ credential: fixedTokenCredential(), projectId: standIn.projectId, httpAgent: agent, now });
  const unreachablePort = await closedPort();
  const failures = new Map<string, FcmReply>();
  standIn.respondWith((request) => failures.get(request.body.message['token']));
  return {
    sender,
    handedOn: () =>
      standIn.received.map(({ body: { message } }): HandedOnMessage => ({ data: message['data'], apnsBadge: message['apns'].payload.aps.badge, alert: message['notification'] })),
    delivery: {
      fail: (token, failure) => failures.set(token, answers[failure]),
      cutOff: () => {
        agent.port = unreachablePort;
      },
    },
    close: async () => {
      await sender.close();
      await standIn.close();
    },
  };
});
