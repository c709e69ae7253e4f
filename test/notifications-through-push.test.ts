import { startDirectoryService } from '@formcast/directory';
import { startPushService } from '@formcast/push';
import { uniqueName, waitFor } from '@formcast/testing';
import { enrollDevice } from './support/fixtures';
import { notifierWithStandIn, testRedisUrl } from './support/notifier-with-stand-in';
import { pushJson } from './support/push-fixtures';
import { systemModes } from './support/start-system';
import { useSystem } from './support/use-system';


describe.each(systemModes)('Badges and notifications follow the push API end to end (%s)', (mode) => {
  const notifier = notifierWithStandIn('e2e_badges');

  // In the RabbitMQ mode the notifier is its own bus peer and keeps badges in Redis.
  const sys = useSystem(mode, {
    env: mode === 'rabbitmq' ? { REDIS_URL: testRedisUrl } : {},
    starters: [startDirectoryService, startPushService, notifier.starter],
    organizations: 1,
    template: { type: 'root', title: 'Inspection', children: [{ identifier: 'site', type: 'text' }] },
  });
  // After the system has stopped (afterAll hooks run in the order they are declared).
  afterAll(() => notifier.cleanUp());

  const enroll = (pushToken: string | null) => enrollDevice(sys.api, sys.org, { pushToken });

  const badge = async (identifier: string) => (await sys.api.get(`/clients/${identifier}/badge.json`, { token: sys.org.token })).json().badge as number;
  const lastBadgeSentTo = (token: string) => {
    const messages = notifier.standIn().messagesTo(token);
    return messages.length === 0 ? undefined : Number(messages[messages.length - 1]!.apns.payload.aps.badge);
  };

  it('pushes raise an alert carrying the badge; submissions, revocations and destroy_all bring it down', async () => {
    const token = `fcm-${uniqueName('tok')}`;
    const device = await enroll(token);
    const first = (await pushJson(sys.api, sys.org, device.identifier, { form_namespace: sys.template.namespace, form_name: 'Visit Acme', form_description: 'Gate 4', payload: {} })).json().oneshot_list[0];
    const second = (await pushJson(sys.api, sys.org, device.identifier, { form_namespace: sys.template.namespace, payload: {} })).json().oneshot_list[0];

    await waitFor(async () => (await badge(device.identifier)) === 2, { timeoutMs: 5000 });
    await waitFor(() => lastBadgeSentTo(token) === 2, { timeoutMs: 5000 });
    const alert = notifier.standIn().messagesTo(token).find((m) => m.notification?.title === 'Visit Acme');
    expect(alert).toMatchObject({
      token,
      notification: { title: 'Visit Acme', body: 'Gate 4' },
      android: { collapse_key: expect.any(String), notification: { notification_count: expect.any(Number) } },
      apns: { headers: { 'apns-collapse-id': expect.any(String) }, payload: { aps: { badge: expect.any(Number) } } },
    });

    expect((await sys.api.post(`/device/oneshots/${first.id}/submission`, { bearer: device.secret, json: { answers: {} } })).status).toBe(201);
    await waitFor(async () => (await badge(device.identifier)) === 1, { timeoutMs: 5000 });
    await waitFor(() => lastBadgeSentTo(token) === 1, { timeoutMs: 5000 });

    await sys.api.delete(`/clients/${device.identifier}/oneshots/${second.id}`, { token: sys.org.token });
    await waitFor(async () => (await badge(device.identifier)) === 0, { timeoutMs: 5000 });
    await waitFor(() => lastBadgeSentTo(token) === 0, { timeoutMs: 5000 });
    // Badge-only updates carry no alert.
    expect(notifier.standIn().messagesTo(token).at(-1)!.notification).toBeUndefined();

    for (let i = 0; i < 3; i += 1) await pushJson(sys.api, sys.org, device.identifier, { form_namespace: sys.template.namespace, payload: {} });
    await waitFor(async () => (await badge(device.identifier)) === 3, { timeoutMs: 5000 });
    await sys.api.post(`/clients/${device.identifier}/oneshots/destroy_all`, { token: sys.org.token });
    await waitFor(async () => (await badge(device.identifier)) === 0, { timeoutMs: 5000 });
    await waitFor(() => lastBadgeSentTo(token) === 0, { timeoutMs: 5000 });
  });

  it('keeps the badge of a device without a push token, sending it nothing', async () => {
    const device = await enroll(null);
    const before = notifier.standIn().received.length;
    await pushJson(sys.api, sys.org, device.identifier, { form_namespace: sys.template.namespace, payload: {} });
    await waitFor(async () => (await badge(device.identifier)) === 1, { timeoutMs: 5000 });
    expect(notifier.standIn().received.length).toBe(before);
  });

  it('uses the token a device registers later', async () => {
    const device = await enroll(null);
    const token = `fcm-${uniqueName('late')}`;
    expect((await sys.api.put('/device/push_token', { bearer: device.secret, json: { push_token: token } })).status).toBe(200);
    // The directory announces the change; push drops its cached copy of the device.
    await waitFor(
      async () => {
        await pushJson(sys.api, sys.org, device.identifier, { form_namespace: sys.template.namespace, payload: {} });
        return notifier.standIn().messagesTo(token).length > 0;
      },
      { timeoutMs: 5000, intervalMs: 200 },
    );
  });
});
