import pino from 'pino';
import { pushEvents } from '@formcast/contracts';
import { redactedPaths } from '@formcast/platform';
import { LoggingNotificationSender } from '../../src/sender/logging-notification-sender';
import { describeNotificationSenderContract, type HandedOnMessage } from './notification-sender.contract';

/** The sender's log lines, through the platform's redaction as in production. */
function loggedLines() {
  const lines: Array<Record<string, any>> = [];
  const logger = pino({ level: 'info', redact: { paths: redactedPaths, censor: '[redacted]' } }, { write: (line: string) => void lines.push(JSON.parse(line)) });
  return { logger, lines };
}

describeNotificationSenderContract('LoggingNotificationSender', async (now) => {
  const { logger, lines } = loggedLines();
  const sender = new LoggingNotificationSender(logger, now);
  return {
    sender,
    handedOn: () => lines.map(({ message }): HandedOnMessage => ({ data: message.data, apnsBadge: message.apns.payload.aps.badge, alert: message.notification })),
    delivery: null,
    close: () => sender.close(),
  };
});

describe('LoggingNotificationSender', () => {
  it('logs the FCM message it would send, the token redacted, one line a notification', async () => {
    const { logger, lines } = loggedLines();
    const sender = new LoggingNotificationSender(logger);
    const oneshot = { id: 12, name: 'Inspection', description: 'Call ahead', namespace: 'http://formcast.local/xforms/a1?b2' };
    const base = { orgId: 7, deviceIdentifier: 'Android_abc', oneshot };
    await sender.sendEach([
      { ...base, deviceId: 21, pushToken: 'token-a', badge: 3, event: pushEvents.oneshotCreated, announces: oneshot },
      { ...base, deviceId: 22, pushToken: 'token-b', badge: 1, event: pushEvents.oneshotRevoked, announces: null },
    ]);
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatchObject({
      component: 'notifications',
      orgId: 7,
      deviceId: 21,
      badge: 3,
      event: 'push.oneshot.created',
      message: { token: '[redacted]', notification: { title: 'Inspection' }, apns: { payload: { aps: { badge: 3 } } } },
    });
    expect(lines[1]).toMatchObject({ deviceId: 22, badge: 1, message: { token: '[redacted]', data: { kind: 'badge', badge: '1' } } });
    expect(JSON.stringify(lines)).not.toMatch(/token-[ab]/);
  });
});
