import { generateKeyPairSync } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { Redis } from 'ioredis';
import pino from 'pino';
import { InProcessBus } from '@formcast/bus';
import { createEnvelope, notifierCommands, pushEvents, type BadgeView } from '@formcast/contracts';
import { parseSettings, type RunningService } from '@formcast/platform';
import { uniqueName, waitFor } from '@formcast/testing';
import { startNotifier } from '../src/service';
import { deleteKeys, redisUrlForTests } from './redis-for-tests';

function capturingLogger() {
  const lines: Array<Record<string, any>> = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(JSON.parse(chunk.toString('utf8')));
      done();
    },
  });
  return { logger: pino({ level: 'info' }, sink), lines };
}

const serviceAccount = () =>
  JSON.stringify({
    type: 'service_account',
    project_id: 'acme-forms',
    client_email: 'notifier@acme-forms.iam.gserviceaccount.com',
    private_key: generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
  });

const created = (orgId: number, deviceId: number, oneshotId: number) =>
  createEnvelope(
    pushEvents.oneshotCreated,
    {
      oneshotId,
      orgId,
      deviceId,
      deviceIdentifier: `Android_${deviceId}`,
      pushToken: null,
      name: 'Inspection',
      description: '',
      namespace: 'http://formcast.local/xforms/t',
    },
    { orgId },
  );

describe('startNotifier: adapters from the settings', () => {
  let dataDir: string;
  let bus: InProcessBus;
  let notifier: RunningService | undefined;

  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'notifier-service-'));
    bus = new InProcessBus();
  });
  afterEach(async () => {
    await bus.close();
    await notifier?.stop();
    notifier = undefined;
    rmSync(dataDir, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
  });

  const badgeOf = async (orgId: number, deviceId: number) =>
    (await bus.request<BadgeView>(createEnvelope(notifierCommands.getBadge, { deviceId }, { orgId }))).badge;

  it('keeps badges in SQLite under DATA_DIR and logs notifications when nothing else is configured', async () => {
    const log = capturingLogger();
    notifier = await startNotifier({ bus, settings: parseSettings({ DATA_DIR: dataDir }), logger: log.logger });
    await bus.start();
    expect(notifier.name).toBe('notifier');
    expect(existsSync(join(dataDir, 'notifier.sqlite'))).toBe(true);
    await expect(notifier.ping()).resolves.toBeUndefined();
    expect(log.lines.find((line) => line['msg'] === 'notifier ready')).toMatchObject({ notifications: 'log', service: 'notifier' });

    await bus.publish(created(1, 2, 3));
    await waitFor(async () => (await badgeOf(1, 2)) === 1, { description: 'badge 1' });
    expect(await badgeOf(2, 2)).toBe(0);
  });

  it('keeps badges in Redis when REDIS_URL is set, and sends through firebase-admin with FCM credentials', async () => {
    const log = capturingLogger();
    const keyPrefix = `${uniqueName('test_notifier_service')}:`;
    const redis = new Redis(redisUrlForTests());
    try {
      const settings = parseSettings({ DATA_DIR: dataDir, REDIS_URL: redisUrlForTests(), FCM_SERVICE_ACCOUNT: serviceAccount() });
      notifier = await startNotifier({ bus, settings, logger: log.logger }, { redisKeyPrefix: keyPrefix });
      await bus.start();
      expect(log.lines.find((line) => line['msg'] === 'notifier ready')).toMatchObject({ notifications: 'fcm (project acme-forms)' });
      expect(existsSync(join(dataDir, 'notifier.sqlite'))).toBe(false);

      await bus.publish(created(1, 2, 3));
      await waitFor(async () => (await badgeOf(1, 2)) === 1, { description: 'badge 1' });
      expect(await redis.smembers(`${keyPrefix}{device:1:2}:outstanding`)).toEqual(['3']);
    } finally {
      await deleteKeys(redis, keyPrefix);
      await redis.quit();
    }
  });

  it('does not start when Redis cannot be reached', async () => {
    const settings = parseSettings({ DATA_DIR: dataDir, REDIS_URL: 'redis://127.0.0.1:1' });
    await expect(startNotifier({ bus, settings, logger: pino({ level: 'silent' }) })).rejects.toThrow(/Cannot reach Redis for badges \(REDIS_URL\)/);
  });
});

describe('notifier settings', () => {
  it('refuses FCM_SERVICE_ACCOUNT unless it is a service account key, without echoing it', () => {
    for (const value of ['not json', '{"project_id":"acme"}', '[]']) {
      expect(() => parseSettings({ FCM_SERVICE_ACCOUNT: value })).toThrow(
        /^Invalid setting FCM_SERVICE_ACCOUNT: must be a service account key JSON with project_id, client_email and private_key$/,
      );
    }
    expect(parseSettings({ FCM_SERVICE_ACCOUNT: '  ' }).FCM_SERVICE_ACCOUNT).toBeUndefined();
  });

  it('remembers ended oneshots for a week unless BADGE_TOMBSTONE_TTL_HOURS says otherwise', () => {
    expect(parseSettings({}).BADGE_TOMBSTONE_TTL_HOURS).toBe(168);
    expect(parseSettings({ BADGE_TOMBSTONE_TTL_HOURS: '48' }).BADGE_TOMBSTONE_TTL_HOURS).toBe(48);
    expect(() => parseSettings({ BADGE_TOMBSTONE_TTL_HOURS: '0' })).toThrow(/^Invalid setting BADGE_TOMBSTONE_TTL_HOURS/);
  });
});
