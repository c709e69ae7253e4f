import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createEnvelope, pushEvents, type OneshotEventPayload } from '@formcast/contracts';
import { SqliteBadgeStore, badgeMigrations } from '@formcast/notifier';
import { SqlitePushStore, pushMigrations, type NewOneshot, type Oneshot } from '@formcast/push';
import { openSqlite, type SqliteDatabase } from '@formcast/storage';

/**
 * What reading a device's outstanding count costs as the device holds more (issue 24/25): the
 * push store's cap check (`countOutstanding`, at every create) and the notifier's badge (after
 * every change), each read from its row kept by triggers, beside the count of the device's
 * rows they replaced, on the same file. CPU a read by `process.cpuUsage`, in this process.
 * `node bench/dist/bench/src/outstanding-counts.js`
 */
const reads = 20_000;
const levels = [10, 100, 500, 2000];

function cpuMicros(work: () => void): number {
  work();
  const started = process.cpuUsage();
  for (let i = 0; i < reads; i += 1) work();
  const used = process.cpuUsage(started);
  return (used.user + used.system) / reads;
}

function oneshot(deviceId: number): NewOneshot {
  const at = new Date().toISOString();
  return {
    orgId: 1, deviceId, deviceIdentifier: `Android_${deviceId}`, formId: 7, templateNamespace: 'http://forms.example.com/t',
    namespace: 'http://forms.example.com/t?bench', name: 'T', description: '', payload: { site: 'A' }, formVersion: '1.00',
    scheduledAt: null, location: null, address: null, geofenceRadius: null, state: 'outstanding', createdAt: at, updatedAt: at, releasedAt: at,
  };
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'formcast-counts-'));
  const pushFile = join(dir, 'push.sqlite');
  const badgeFile = join(dir, 'notifier.sqlite');
  const push = new SqlitePushStore(pushFile);
  const badges = new SqliteBadgeStore(badgeFile);
  const pushRaw: SqliteDatabase = openSqlite(pushFile, pushMigrations);
  const badgeRaw: SqliteDatabase = openSqlite(badgeFile, badgeMigrations);
  const counted = pushRaw.prepare(`SELECT count(*) FROM oneshots WHERE org_id = 1 AND state = 'outstanding' AND device_id = 5`).pluck();
  const badgeCounted = badgeRaw.prepare('SELECT count(*) FROM outstanding_oneshots WHERE org_id = 1 AND device_id = 5').pluck();
  const event = (made: Oneshot) =>
    createEnvelope<OneshotEventPayload>(
      pushEvents.oneshotCreated,
      { oneshotId: made.id, orgId: 1, deviceId: 5, deviceIdentifier: made.deviceIdentifier, pushToken: null, name: made.name, description: '', namespace: made.namespace },
      { orgId: 1 },
    );
  const device = { orgId: 1, deviceId: 5 };
  let held = 0;
  try {
    process.stdout.write('| outstanding on the device | cap check: its row | cap check: count(*) | badge: its row | badge: count(*) |\n|--:|--:|--:|--:|--:|\n');
    for (const level of levels) {
      while (held < level) {
        const batch = Math.min(100, level - held);
        const made = await Promise.all(Array.from({ length: batch }, () => push.create(oneshot(5), event, randomUUID())));
        for (const one of made) await badges.record(device, one.id, 'outstanding');
        held += batch;
      }
      if ((await push.countOutstanding(1, 5)) !== level || (await badges.badge(device)) !== level) throw new Error(`the counts disagree with the ${level} made`);
      let row = 0;
      let badgeRow = 0;
      const pushRow = cpuMicros(() => void push.countOutstanding(1, 5).then((n) => (row = n)));
      const pushCount = cpuMicros(() => counted.get());
      const badgeRowMicros = cpuMicros(() => void badges.badge(device).then((n) => (badgeRow = n)));
      const badgeCount = cpuMicros(() => badgeCounted.get());
      await new Promise((resolve) => setImmediate(resolve));
      if (row !== level || badgeRow !== level) throw new Error('a row read answered another count');
      process.stdout.write(`| ${level} | ${pushRow.toFixed(1)} µs | ${pushCount.toFixed(1)} µs | ${badgeRowMicros.toFixed(1)} µs | ${badgeCount.toFixed(1)} µs |\n`);
    }
  } finally {
    pushRaw.close();
    badgeRaw.close();
    await push.close();
    await badges.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${String(error)}\n`);
  process.exit(1);
});
