import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pushEvents } from '@formcast/contracts';
import {
  FirebaseNotificationSender,
  LoggingNotificationSender,
  openNotificationSender,
  type DeviceNotification,
  type SendOutcome,
} from '@formcast/notifier';
import { createLogger } from '@formcast/platform';
import {
  closedPort,
  FcmStandIn,
  fcmError,
  fixedTokenCredential,
  LocalFcmAgent,
  standInAccessToken,
} from './support/fcm-stand-in';

const fixedNow = Date.UTC(2030, 0, 1, 12, 0, 0);
const weekInSeconds = 7 * 24 * 60 * 60;
const logger = createLogger({ level: 'silent' });

const inspection = { id: 12, name: 'Inspection', description: 'Call ahead', namespace: 'http://formcast.local/xforms/a1?b2' };

function notification(overrides: Partial<DeviceNotification> = {}): DeviceNotification {
  return {
    orgId: 7,
    deviceId: 21,
    deviceIdentifier: 'Android_abc',
    pushToken: 'token-a',
    badge: 3,
    event: pushEvents.oneshotCreated,
    oneshot: inspection,
    announces: inspection,
    ...overrides,
  };
}

describe('FirebaseNotificationSender through firebase-admin, against the FCM stand-in', () => {
  let standIn: FcmStandIn;
  let sender: FirebaseNotificationSender;

  beforeAll(async () => {
    standIn = await FcmStandIn.start();
    sender = new FirebaseNotificationSender({
      credential: fixedTokenCredential(),
      projectId: standIn.projectId,
      httpAgent: standIn.agent(),
      now: () => fixedNow,
    });
  });
  afterEach(() => standIn.clear());
  afterAll(async () => {
    await sender.close();
    await standIn.close();
  });

  it('sends an announcement as FCM v1 JSON: alert, badge on both platforms, one collapse key, a TTL', async () => {
    expect(await sender.sendEach([notification()])).toEqual([{ status: 'sent' }]);

    expect(standIn.received).toHaveLength(1);
    const [request] = standIn.received;
    expect(request!.path).toBe(`/v1/projects/${standIn.projectId}/messages:send`);
    expect(request!.headers.host).toBe('fcm.googleapis.com');
    expect(request!.headers.authorization).toBe(`Bearer ${standInAccessToken}`);
    expect(request!.headers['content-type']).toMatch(/^application\/json/);
    expect(request!.body).toEqual({
      message: {
        token: 'token-a',
        notification: { title: 'Inspection', body: 'Call ahead' },
        data: {
          kind: 'oneshot',
          badge: '3',
          device_identifier: 'Android_abc',
          oneshot_id: '12',
          form_namespace: 'http://formcast.local/xforms/a1?b2',
        },
        android: {
          collapse_key: 'formcast-badge-7-21',
          ttl: `${weekInSeconds}s`,
          priority: 'high',
          notification: { notification_count: 3, tag: 'formcast-badge-7-21' },
        },
        apns: {
          headers: {
            'apns-collapse-id': 'formcast-badge-7-21',
            'apns-expiration': String(fixedNow / 1000 + weekInSeconds),
            'apns-push-type': 'alert',
            'apns-priority': '10',
          },
          payload: { aps: { badge: 3, sound: 'default' } },
        },
      },
    });
  });

  it('sends a badge update without an alert: a badge-only APNs push and an Android data message', async () => {
    const completed = notification({ badge: 0, event: pushEvents.oneshotCompleted, announces: null, pushToken: 'token-b' });
    expect(await sender.sendEach([completed])).toEqual([{ status: 'sent' }]);

    expect(standIn.received.map((r) => r.body)).toEqual([
      {
        message: {
          token: 'token-b',
          data: { kind: 'badge', badge: '0', device_identifier: 'Android_abc' },
          android: { collapse_key: 'formcast-badge-7-21', ttl: `${weekInSeconds}s`, priority: 'normal' },
          apns: {
            headers: {
              'apns-collapse-id': 'formcast-badge-7-21',
              'apns-expiration': String(fixedNow / 1000 + weekInSeconds),
              'apns-push-type': 'alert',
              'apns-priority': '5',
            },
            payload: { aps: { badge: 0 } },
          },
        },
      },
    ]);
  });

  it('leaves the body out of an announcement whose description is empty', async () => {
    const bare = { ...inspection, description: '' };
    await sender.sendEach([notification({ oneshot: bare, announces: bare })]);
    expect(standIn.received[0]!.body.message['notification']).toEqual({ title: 'Inspection' });
  });

  it('sends a batch of 500 in one call, one FCM request per message, and refuses 501', async () => {
    const batch = Array.from({ length: 500 }, (_, i) => notification({ deviceId: 1000 + i, pushToken: `token-${i}`, badge: i }));
    const outcomes = await sender.sendEach(batch);
    expect(outcomes).toHaveLength(500);
    expect(outcomes.every((o) => o.status === 'sent')).toBe(true);
    expect(standIn.received).toHaveLength(500);
    expect(new Set(standIn.received.map((r) => r.body.message['token'])).size).toBe(500);
    expect(standIn.messagesTo('token-321')[0]!['apns'].payload.aps.badge).toBe(321);

    await expect(sender.sendEach([...batch, notification()])).rejects.toThrow(/At most 500/);
  });

  it('reports each failure of a batch by itself: unregistered token, invalid message, and the ones sent', async () => {
    standIn.respondWith((request) => {
      const token = request.body.message['token'];
      if (token === 'gone') return fcmError('UNREGISTERED');
      if (token === 'malformed') return fcmError('INVALID_ARGUMENT');
      return undefined;
    });
    const outcomes = await sender.sendEach([
      notification({ pushToken: 'gone' }),
      notification({ pushToken: 'fine', deviceId: 22 }),
      notification({ pushToken: 'malformed', deviceId: 23 }),
    ]);
    expect(outcomes).toEqual([
      { status: 'token_not_registered', code: 'messaging/registration-token-not-registered', message: expect.any(String) },
      { status: 'sent' },
      { status: 'rejected', code: 'messaging/invalid-argument', message: 'The registration token is not a valid FCM registration token' },
    ]);
    expect(standIn.received).toHaveLength(3);
  });

  it('reports a rate limit as worth retrying after the Retry-After FCM sent (the SDK does not retry it)', async () => {
    standIn.respondWith(() => fcmError('QUOTA_EXCEEDED', { 'retry-after': '30' }));
    const [outcome] = await sender.sendEach([notification()]);
    expect(outcome).toEqual({
      status: 'retry',
      code: 'messaging/message-rate-exceeded',
      message: expect.any(String),
      retryAfterMs: 30_000,
    });
    expect(standIn.received).toHaveLength(1);
  });

  it('lets the SDK retry a 503 after its Retry-After, and reports the message sent once it goes through', async () => {
    let unavailable = 1;
    standIn.respondWith(() => (unavailable-- > 0 ? fcmError('UNAVAILABLE', { 'retry-after': '1' }) : undefined));
    const live = new FirebaseNotificationSender({
      credential: fixedTokenCredential(),
      projectId: standIn.projectId,
      httpAgent: standIn.agent(),
    });
    try {
      expect(await live.sendEach([notification()])).toEqual([{ status: 'sent' }]);
    } finally {
      await live.close();
    }
    expect(standIn.received).toHaveLength(2);
    expect(standIn.received[1]!.at - standIn.received[0]!.at).toBeGreaterThanOrEqual(990);
  });

  it('reports FCM unavailable after the SDK has retried 4 times, each after the Retry-After', async () => {
    standIn.respondWith(() => fcmError('UNAVAILABLE', { 'retry-after': '1' }));
    const live = new FirebaseNotificationSender({
      credential: fixedTokenCredential(),
      projectId: standIn.projectId,
      httpAgent: standIn.agent(),
    });
    let outcome: SendOutcome | undefined;
    try {
      [outcome] = await live.sendEach([notification()]);
    } finally {
      await live.close();
    }
    expect(outcome).toEqual({
      status: 'retry',
      code: 'messaging/server-unavailable',
      message: expect.any(String),
      retryAfterMs: expect.any(Number),
    });
    expect((outcome as { retryAfterMs: number }).retryAfterMs).toBeLessThanOrEqual(1000);
    expect(standIn.received).toHaveLength(5);
    const gaps = standIn.received.slice(1).map((r, i) => r.at - standIn.received[i]!.at);
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(990);
  }, 15_000);

  it('reports a connection that cannot be made as a network error worth retrying', async () => {
    const unreachable = new FirebaseNotificationSender({
      credential: fixedTokenCredential(),
      projectId: standIn.projectId,
      httpAgent: new LocalFcmAgent(await closedPort()),
    });
    try {
      expect(await unreachable.sendEach([notification(), notification({ deviceId: 22 })])).toEqual([
        { status: 'retry', code: 'app/network-error', message: expect.stringContaining('ECONNREFUSED') },
        { status: 'retry', code: 'app/network-error', message: expect.stringContaining('ECONNREFUSED') },
      ]);
    } finally {
      await unreachable.close();
    }
  });

  it('reports an access token it cannot get as worth retrying, and sends nothing', async () => {
    const noToken = new FirebaseNotificationSender({
      credential: { getAccessToken: () => Promise.reject(new Error('token server down')) },
      projectId: standIn.projectId,
      httpAgent: standIn.agent(),
    });
    try {
      const [outcome] = await noToken.sendEach([notification()]);
      expect(outcome).toEqual({ status: 'retry', code: 'app/invalid-credential', message: expect.stringContaining('token server down') });
    } finally {
      await noToken.close();
    }
    expect(standIn.received).toHaveLength(0);
  });

  it('retries when FCM refuses our own credentials (reported by the SDK as a third-party auth error)', async () => {
    const wrongToken = new FirebaseNotificationSender({
      credential: fixedTokenCredential('expired-token'),
      projectId: standIn.projectId,
      httpAgent: standIn.agent(),
    });
    try {
      const [outcome] = await wrongToken.sendEach([notification()]);
      expect(outcome).toMatchObject({ status: 'retry', code: 'messaging/third-party-auth-error' });
    } finally {
      await wrongToken.close();
    }
  });
});

describe('openNotificationSender', () => {
  const account = () => {
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    return {
      type: 'service_account',
      project_id: 'acme-forms',
      client_email: 'notifier@acme-forms.iam.gserviceaccount.com',
      private_key: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    };
  };

  it('logs notifications when no FCM credentials are configured', async () => {
    const sender = openNotificationSender({ FCM_SERVICE_ACCOUNT: undefined, GOOGLE_APPLICATION_CREDENTIALS: undefined }, logger);
    expect(sender).toBeInstanceOf(LoggingNotificationSender);
    await sender.close();
  });

  it('sends through firebase-admin with the FCM_SERVICE_ACCOUNT key, in its project', async () => {
    const sender = openNotificationSender({ FCM_SERVICE_ACCOUNT: JSON.stringify(account()), GOOGLE_APPLICATION_CREDENTIALS: undefined }, logger);
    expect(sender).toBeInstanceOf(FirebaseNotificationSender);
    expect(sender.description).toBe('fcm (project acme-forms)');
    await sender.close();
  });

  it('sends through firebase-admin with the GOOGLE_APPLICATION_CREDENTIALS file, and names the setting when it is missing', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'fcm-credentials-'));
    try {
      const file = join(dir, 'service-account.json');
      writeFileSync(file, JSON.stringify(account()));
      const sender = openNotificationSender({ FCM_SERVICE_ACCOUNT: undefined, GOOGLE_APPLICATION_CREDENTIALS: file }, logger);
      expect(sender).toBeInstanceOf(FirebaseNotificationSender);
      expect(sender.description).toBe('fcm (project acme-forms)');
      await sender.close();

      const missing = join(dir, 'missing.json');
      expect(() => openNotificationSender({ FCM_SERVICE_ACCOUNT: undefined, GOOGLE_APPLICATION_CREDENTIALS: missing }, logger)).toThrow(
        /^Cannot use GOOGLE_APPLICATION_CREDENTIALS for FCM: ENOENT/,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
    }
  });
});
