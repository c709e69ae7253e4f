import { Redis } from 'ioredis';
import type { Bus } from '@formcast/bus';
import { startDirectoryService } from '@formcast/directory';
import { FirebaseNotificationSender, startNotifier } from '@formcast/notifier';
import type { ServiceStarter } from '@formcast/platform';
import { startPushService } from '@formcast/push';
import { uniqueName, waitFor } from '@formcast/testing';
import type { ApiClient } from './support/api-client';
import { FcmStandIn, fixedTokenCredential } from './support/fcm-stand-in';
import { createOrganization, type TestOrganization } from './support/fixtures';
import { createTemplate, pushJson } from './support/push-fixtures';
import { startSystem, systemModes, type RunningSystem } from './support/start-system';

const redisUrl = process.env['REDIS_URL'] || 'redis://127.0.0.1:6379';

describe.each(systemModes)('Badges and notifications follow the push API end to end (%s)', (mode) => {
  let standIn: FcmStandIn;
  let system: RunningSystem;
  let api: ApiClient;
  let org: TestOrganization;
  let template: { namespace: string; name: string };
  const keyPrefix = `${uniqueName('e2e_badges')}:`;

  beforeAll(async () => {
    standIn = await FcmStandIn.start();
    const notifierWithStandIn: ServiceStarter<Bus> = (context) =>
      startNotifier(context, {
        sender: new FirebaseNotificationSender({ credential: fixedTokenCredential(), projectId: standIn.projectId, httpAgent: standIn.agent() }),
        redisKeyPrefix: keyPrefix,
      });
    // In the RabbitMQ mode the notifier is its own bus peer and keeps badges in Redis.
    system = await startSystem(mode, mode === 'rabbitmq' ? { REDIS_URL: redisUrl } : {}, {
      starters: [startDirectoryService, startPushService, notifierWithStandIn],
    });
    api = system.api;
    org = await createOrganization(api, system.adminToken);
    template = await createTemplate(api, org, { type: 'root', title: 'Inspection', children: [{ identifier: 'site', type: 'text' }] });
  });
  afterAll(async () => {
    await system?.stop();
    await standIn?.close();
    if (mode === 'rabbitmq') {
      const redis = new Redis(redisUrl);
      const keys = await redis.keys(`${keyPrefix}*`);
      if (keys.length > 0) await redis.del(...keys);
      await redis.quit();
    }
  });

  async function enroll(pushToken: string | null) {
    const identifier = uniqueName('Android_e2e').replace(/[^A-Za-z0-9_.:-]/g, '');
    const res = await api.post('/devices/enroll', { json: { enrollment_code: org.enrollmentCode, identifier, push_token: pushToken } });
    const { device, device_secret } = res.json();
    await api.post(`/organizations/${org.orgId}/devices/${device.id}/approve`, { token: org.token });
    return { id: device.id as number, identifier, secret: device_secret as string };
  }

  const badge = async (identifier: string) => (await api.get(`/clients/${identifier}/badge.json`, { token: org.token })).json().badge as number;
  const lastBadgeSentTo = (token: string) => {
    const messages = standIn.messagesTo(token);
    return messages.length === 0 ? undefined : Number(messages[messages.length - 1]!.apns.payload.aps.badge);
  };

  it('pushes raise an alert carrying the badge; submissions, revocations and destroy_all bring it down', async () => {
    const token = `fcm-${uniqueName('tok')}`;
    const device = await enroll(token);
    const first = (await pushJson(api, org, device.identifier, { form_namespace: template.namespace, form_name: 'Visit Acme', form_description: 'Gate 4', payload: {} })).json().oneshot_list[0];
    const second = (await pushJson(api, org, device.identifier, { form_namespace: template.namespace, payload: {} })).json().oneshot_list[0];

    await waitFor(async () => (await badge(device.identifier)) === 2, { timeoutMs: 5000 });
    await waitFor(() => lastBadgeSentTo(token) === 2, { timeoutMs: 5000 });
    const alert = standIn.messagesTo(token).find((m) => m.notification?.title === 'Visit Acme');
    expect(alert).toMatchObject({
      token,
      notification: { title: 'Visit Acme', body: 'Gate 4' },
      android: { collapse_key: expect.any(String), notification: { notification_count: expect.any(Number) } },
      apns: { headers: { 'apns-collapse-id': expect.any(String) }, payload: { aps: { badge: expect.any(Number) } } },
    });

    expect((await api.post(`/device/oneshots/${first.id}/submission`, { bearer: device.secret, json: { answers: {} } })).status).toBe(201);
    await waitFor(async () => (await badge(device.identifier)) === 1, { timeoutMs: 5000 });
    await waitFor(() => lastBadgeSentTo(token) === 1, { timeoutMs: 5000 });

    await api.delete(`/clients/${device.identifier}/oneshots/${second.id}`, { token: org.token });
    await waitFor(async () => (await badge(device.identifier)) === 0, { timeoutMs: 5000 });
    await waitFor(() => lastBadgeSentTo(token) === 0, { timeoutMs: 5000 });
    // Badge-only updates carry no alert.
    expect(standIn.messagesTo(token).at(-1)!.notification).toBeUndefined();

    for (let i = 0; i < 3; i += 1) await pushJson(api, org, device.identifier, { form_namespace: template.namespace, payload: {} });
    await waitFor(async () => (await badge(device.identifier)) === 3, { timeoutMs: 5000 });
    await api.post(`/clients/${device.identifier}/oneshots/destroy_all`, { token: org.token });
    await waitFor(async () => (await badge(device.identifier)) === 0, { timeoutMs: 5000 });
    await waitFor(() => lastBadgeSentTo(token) === 0, { timeoutMs: 5000 });
  });

  it('keeps the badge of a device without a push token, sending it nothing', async () => {
    const device = await enroll(null);
    const before = standIn.received.length;
    await pushJson(api, org, device.identifier, { form_namespace: template.namespace, payload: {} });
    await waitFor(async () => (await badge(device.identifier)) === 1, { timeoutMs: 5000 });
    expect(standIn.received.length).toBe(before);
  });

  it('uses the token a device registers later', async () => {
    const device = await enroll(null);
    const token = `fcm-${uniqueName('late')}`;
    expect((await api.put('/device/push_token', { bearer: device.secret, json: { push_token: token } })).status).toBe(200);
    // The directory announces the change; push drops its cached copy of the device.
    await waitFor(
      async () => {
        await pushJson(api, org, device.identifier, { form_namespace: template.namespace, payload: {} });
        return standIn.messagesTo(token).length > 0;
      },
      { timeoutMs: 5000, intervalMs: 200 },
    );
  });
});
