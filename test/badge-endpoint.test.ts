import { mkdtempSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { AmqpBus, InProcessBroker, InProcessBus, type Bus } from '@formcast/bus';
import { createEnvelope, pushEvents, type PushEventType } from '@formcast/contracts';
import { directoryServiceName, startDirectoryService } from '@formcast/directory';
import { createGatewayApp } from '@formcast/gateway';
import { notifierServiceName, startNotifier } from '@formcast/notifier';
import { createLogger, parseSettings, type RunningService } from '@formcast/platform';
import { deleteTestTopology, uniqueName, waitFor } from '@formcast/testing';
import { ApiClient } from './support/api-client';
import { enrollDevice, type TestDevice, type TestOrganization } from './support/fixtures';
import { amqpUrl, systemModes } from './support/start-system';
import { useStartedSystem, useSystem } from './support/use-system';

const badgePath = (device: { identifier: string }, suffix = '') => `/clients/${encodeURIComponent(device.identifier)}/badge${suffix}`;

describe.each(systemModes)('Badge endpoint (%s)', (mode) => {
  const sys = useSystem(mode, { organizations: 2 });
  let device: TestDevice;
  let othersDevice: TestDevice;

  beforeAll(async () => {
    device = await enrollDevice(sys.api, sys.org);
    othersDevice = await enrollDevice(sys.api, sys.orgs[1]);
  });

  it('answers {"badge": 0} for a device with nothing outstanding, in JSON by default', async () => {
    for (const path of [badgePath(device), badgePath(device, '.json')]) {
      const res = await sys.api.get(path, { token: sys.org.token });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      expect(res.json()).toEqual({ badge: 0, push_token_present: false });
    }
  });

  it('answers XML for .xml or Accept: application/xml', async () => {
    const expected = '<?xml version="1.0" encoding="UTF-8"?>\n<badge type="integer">0</badge>\n';
    const bySuffix = await sys.api.get(badgePath(device, '.xml'), { token: sys.org.token });
    expect(bySuffix.status).toBe(200);
    expect(bySuffix.headers.get('content-type')).toMatch(/^application\/xml/);
    expect(bySuffix.text).toBe(expected);
    const byAccept = await sys.api.get(badgePath(device), { token: sys.org.token, headers: { accept: 'application/xml' } });
    expect(byAccept.text).toBe(expected);
  });

  it('finds the device by its numeric id too', async () => {
    const res = await sys.api.get(`/clients/${device.id}/badge.json`, { token: sys.org.token });
    expect(res.status).toBe(200);
    expect(res.json()).toEqual({ badge: 0, push_token_present: false });
  });

  it('needs the organization API token', async () => {
    const res = await sys.api.get(badgePath(device, '.json'));
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe('Basic realm="Formcast API"');
    expect((await sys.api.get(badgePath(device, '.json'), { token: 'not-a-token' })).status).toBe(401);
  });

  it("answers 404 for an unknown device and for another organization's device", async () => {
    const unknown = await sys.api.get(badgePath({ identifier: 'Android_nobody' }, '.json'), { token: sys.org.token });
    expect(unknown.status).toBe(404);
    const foreign = await sys.api.get(badgePath(othersDevice, '.json'), { token: sys.org.token });
    expect(foreign.status).toBe(404);
    expect(foreign.json()).toMatchObject({ status: '404', error: 'Not Found' });
    expect((await sys.api.get(`/clients/${othersDevice.id}/badge.json`, { token: sys.org.token })).status).toBe(404);
    expect((await sys.api.get(badgePath(othersDevice, '.json'), { token: sys.orgs[1].token })).json()).toEqual({
      badge: 0,
      push_token_present: false,
    });
  });

  it('says whether the device has a push token, never the token, and follows the device changing it', async () => {
    const pushToken = `fcm-badge-${uniqueName('token')}`;
    const identifier = uniqueName('Android_badge');
    const enrolled = await sys.api.post('/devices/enroll', {
      json: { enrollment_code: sys.org.enrollmentCode, identifier, push_token: pushToken },
    });
    expect(enrolled.status).toBe(201);
    const withToken = { identifier, secret: enrolled.json().device_secret as string };
    const approved = await sys.api.post(`/organizations/${sys.org.orgId}/devices/${enrolled.json().device.id}/approve`, { token: sys.org.token });
    expect(approved.status).toBe(200);

    const answer = await sys.api.get(badgePath(withToken, '.json'), { token: sys.org.token });
    expect(answer.json()).toEqual({ badge: 0, push_token_present: true });
    expect(answer.text).not.toContain(pushToken);
    const presence = async (d: { identifier: string }) =>
      (await sys.api.get(badgePath(d, '.json'), { token: sys.org.token })).json().push_token_present;

    expect((await sys.api.put('/device/push_token', { bearer: withToken.secret, json: { push_token: null } })).status).toBe(200);
    expect(await presence(withToken)).toBe(false);

    expect(await presence(device)).toBe(false);
    expect((await sys.api.put('/device/push_token', { bearer: device.secret, json: { push_token: 'fcm-registered-later' } })).status).toBe(200);
    expect(await presence(device)).toBe(true);
    expect((await sys.api.put('/device/push_token', { bearer: device.secret, json: { push_token: null } })).status).toBe(200);
    expect(await presence(device)).toBe(false);
  });

  it('keeps the XML answer the bare badge element it always was (no push token there)', async () => {
    const res = await sys.api.get(badgePath(device, '.xml'), { token: sys.org.token });
    expect(res.text).toBe('<?xml version="1.0" encoding="UTF-8"?>\n<badge type="integer">0</badge>\n');
  });

  it('answers 404 for another suffix', async () => {
    expect((await sys.api.get(badgePath(device, '.txt'), { token: sys.org.token })).status).toBe(404);
  });
});

type PeersMode = 'embedded' | 'rabbitmq and redis';

/**
 * Gateway, directory and notifier, with the test's own bus peer to publish push events on
 * (the push service publishes them in the full system): in one process on an in-process bus
 * with SQLite badges, or as separate peers over RabbitMQ with badges in Redis.
 */
async function startBadgeSystem(mode: PeersMode) {
  const logger = createLogger({ level: 'silent' });
  const adminToken = 'badge-admin-token-0123456789abcdef';
  const dataDir = mkdtempSync(join(tmpdir(), 'formcast-badges-'));
  const redisUrl = process.env['REDIS_URL'] || 'redis://127.0.0.1:6379';
  const settings = parseSettings({
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    ...(mode === 'rabbitmq and redis' ? { REDIS_URL: redisUrl } : {}),
  });
  const prefix = uniqueName('e2e_badges');
  const keyPrefix = `${uniqueName('test_badges')}:`;
  const broker = new InProcessBroker();
  const buses: Bus[] = [];
  const newBus = () => {
    const bus = mode === 'embedded' ? new InProcessBus({ broker, logger }) : new AmqpBus({ url: amqpUrl, logger, prefix });
    buses.push(bus);
    return bus;
  };
  const services: RunningService[] = [];
  const directoryBus = newBus();
  services.push(await startDirectoryService({ bus: directoryBus, settings, logger }));
  const notifierBus = newBus();
  services.push(await startNotifier({ bus: notifierBus, settings, logger }, { redisKeyPrefix: keyPrefix }));
  const gatewayBus = newBus();
  const app = createGatewayApp({ bus: gatewayBus, logger, adminToken, commandTimeoutMs: 10_000, bodyLimitBytes: 1 << 20 });
  const publisher = newBus();
  for (const bus of buses) await bus.start();
  const server: Server = await new Promise((resolve) => {
    const s = app.listen(0, () => resolve(s));
  });
  return {
    api: new ApiClient(`http://127.0.0.1:${(server.address() as AddressInfo).port}`),
    adminToken,
    publisher,
    stop: async () => {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      for (const bus of buses) await bus.close();
      for (const service of services) await service.stop();
      if (mode === 'rabbitmq and redis') {
        // 'gateway': the gateway's own event queue (token revocations).
        await deleteTestTopology(amqpUrl, prefix, [directoryServiceName, notifierServiceName, 'gateway']);
        const redis = new Redis(redisUrl);
        const keys = await redis.keys(`${keyPrefix}*`);
        if (keys.length > 0) await redis.del(...keys);
        await redis.quit();
      }
      rmSync(dataDir, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
    },
  };
}

describe.each<PeersMode>(['embedded', 'rabbitmq and redis'])('Badge endpoint following push events (%s)', (mode) => {
  const sys = useStartedSystem(() => startBadgeSystem(mode), { organizations: 2 });

  const publish = (o: TestOrganization, device: TestDevice, type: PushEventType, oneshotId: number) =>
    sys.running.publisher.publish(
      createEnvelope(
        type,
        {
          oneshotId,
          orgId: o.orgId,
          deviceId: device.id,
          deviceIdentifier: device.identifier,
          pushToken: null,
          name: 'Inspection',
          description: '',
          namespace: `http://formcast.local/xforms/t?${oneshotId}`,
        },
        { orgId: o.orgId },
      ),
    );

  const badgeOf = async (o: TestOrganization, device: TestDevice) => {
    const res = await sys.api.get(badgePath(device, '.json'), { token: o.token });
    expect(res.status).toBe(200);
    return (res.json() as { badge: number }).badge;
  };
  const badgeBecomes = (o: TestOrganization, device: TestDevice, badge: number) =>
    waitFor(async () => (await badgeOf(o, device)) === badge, { description: `badge ${badge}` });

  it('counts created oneshots and stops counting revoked and completed ones', async () => {
    const device = await enrollDevice(sys.api, sys.org);
    await publish(sys.org, device, pushEvents.oneshotCreated, 1);
    await publish(sys.org, device, pushEvents.oneshotCreated, 2);
    await publish(sys.org, device, pushEvents.oneshotCreated, 3);
    await badgeBecomes(sys.org, device, 3);
    await publish(sys.org, device, pushEvents.oneshotCompleted, 2);
    await badgeBecomes(sys.org, device, 2);
    await publish(sys.org, device, pushEvents.oneshotRevoked, 1);
    await publish(sys.org, device, pushEvents.oneshotRevoked, 3);
    await badgeBecomes(sys.org, device, 0);
    const xml = await sys.api.get(badgePath(device, '.xml'), { token: sys.org.token });
    expect(xml.text).toContain('<badge type="integer">0</badge>');
  });

  it('is not moved by duplicates, redeliveries or a created that comes after its completed', async () => {
    const device = await enrollDevice(sys.api, sys.org);
    const oneshots = [11, 12, 13];
    for (const id of oneshots) await publish(sys.org, device, pushEvents.oneshotCreated, id);
    for (const id of oneshots) await publish(sys.org, device, pushEvents.oneshotCreated, id);
    await publish(sys.org, device, pushEvents.oneshotCompleted, 12);
    await publish(sys.org, device, pushEvents.oneshotCompleted, 12);
    await publish(sys.org, device, pushEvents.oneshotRevoked, 14);
    await publish(sys.org, device, pushEvents.oneshotCreated, 14);
    await publish(sys.org, device, pushEvents.oneshotUpdated, 12);
    // A marker published last: the notifier takes events in order and changes badges in that
    // order (one SQLite writer; one Redis connection), so once the marker counts, all before it do.
    const marker = await enrollDevice(sys.api, sys.org);
    await publish(sys.org, marker, pushEvents.oneshotCreated, 99);
    await badgeBecomes(sys.org, marker, 1);
    expect(await badgeOf(sys.org, device)).toBe(2);
  });

  it("keeps another organization's badges apart and hides them (404)", async () => {
    const mine = await enrollDevice(sys.api, sys.org);
    const theirs = await enrollDevice(sys.api, sys.orgs[1]);
    await publish(sys.orgs[1], theirs, pushEvents.oneshotCreated, 21);
    await badgeBecomes(sys.orgs[1], theirs, 1);
    expect((await sys.api.get(badgePath(theirs, '.json'), { token: sys.org.token })).status).toBe(404);
    expect(await badgeOf(sys.org, mine)).toBe(0);
  });
});
