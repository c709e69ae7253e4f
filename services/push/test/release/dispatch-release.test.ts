import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createEnvelope, pushCommands, pushEvents, type OneshotEventPayload, type ResolvedDevice, type ResolvedForm } from '@formcast/contracts';
import { createLogger } from '@formcast/platform';
import { waitFor } from '@formcast/testing';
import { createOneshot } from '../../src/handlers/create-oneshot';
import type { PushDeps } from '../../src/handlers/deps';
import { revokeOneshot } from '../../src/handlers/revoke-oneshot';
import { updateOneshot } from '../../src/handlers/update-oneshot';
import { DispatchRelease, type DispatchReleaseOptions } from '../../src/release/dispatch-release';
import { SqlitePushStore } from '../../src/store';
import { DirectoryStandIn } from '../support/directory-stand-in';

/**
 * The release of scheduled dispatches (src/release/dispatch-release.ts) on a clock the test
 * moves, over the SQLite store and the real directory cache (the directory stood in for on an
 * in-process bus). Dispatches are scheduled through the create handler, as the API does.
 */

const orgId = 1;
const devices: ResolvedDevice[] = [
  { id: 10, orgId, identifier: 'Android_van1', owner: 'Ada', pendingApproval: false, pushToken: 'fcm-1', groupIds: [1] },
  { id: 11, orgId, identifier: 'Android_van2', owner: 'Bo', pendingApproval: false, pushToken: 'fcm-2', groupIds: [1] },
  { id: 20, orgId: 2, identifier: 'Android_other', owner: 'Cy', pendingApproval: false, pushToken: 'fcm-other', groupIds: [2] },
];
const templates: ResolvedForm[] = [1, 2].map((org) => ({
  id: 6 + org,
  orgId: org,
  namespace: `http://forms.example.com/inspection-${org}`,
  name: 'Inspection',
  version: '1.00',
  groupId: org,
  questions: [{ identifier: 'site', type: 'text' }],
}));

const start = Date.parse('2026-03-01T09:00:00.000Z');
const minutes = (n: number) => new Date(start + n * 60_000).toISOString();
const silent = createLogger({ level: 'silent' });

let dir: string;
let store: SqlitePushStore;
let directory: DirectoryStandIn;
let now: number;
let writes: number;
let deps: PushDeps;
const releases: DispatchRelease[] = [];

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'push-release-'));
  store = new SqlitePushStore(join(dir, 'push.sqlite'));
  directory = await DirectoryStandIn.start(
    devices.map((d) => ({ ...d })),
    templates,
  );
  now = start;
  writes = 0;
  deps = { store, directory: directory.lookup, eventsWritten: () => undefined, clock: () => new Date(now) };
});

afterEach(async () => {
  await Promise.all(releases.splice(0).map((r) => r.stop()));
  await directory.close();
  await store.close();
  rmSync(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
});

function releaseOn(on: SqlitePushStore, options: Partial<DispatchReleaseOptions> = {}): DispatchRelease {
  const release = new DispatchRelease(on, directory.lookup, () => (writes += 1), silent, { intervalMs: 10, clock: () => new Date(now), ...options });
  releases.push(release);
  return release;
}

async function schedule(device: ResolvedDevice, scheduledAt: string, name = 'Later'): Promise<number> {
  const template = templates.find((t) => t.orgId === device.orgId)!;
  const created = (await createOneshot(deps)(
    createEnvelope(
      pushCommands.createOneshot,
      { deviceRef: device.identifier, form_namespace: template.namespace, form_name: name, payload: {}, scheduled_at: scheduledAt },
      { orgId: device.orgId },
    ),
  )) as { id: number };
  return created.id;
}

/** The `created` events in the outbox, as [oneshot id, push token]. */
async function createdEvents(): Promise<Array<[number, string | null]>> {
  return (await store.unpublishedEvents(10_000))
    .filter((entry) => entry.event.type === pushEvents.oneshotCreated)
    .map(({ event }) => {
      const payload = event.payload as OneshotEventPayload;
      return [payload.oneshotId, payload.pushToken];
    });
}

it('releases nothing before its time; at its time each one once, with its created event carrying its device\'s push token', async () => {
  const first = await schedule(devices[0]!, minutes(10));
  const second = await schedule(devices[1]!, minutes(20));
  const release = releaseOn(store);

  now = start + 9 * 60_000;
  expect(await release.releaseDue()).toBe(0);
  expect(await createdEvents()).toEqual([]);
  expect(writes).toBe(0);

  now = start + 10 * 60_000;
  expect(await release.releaseDue()).toBe(1);
  expect(await createdEvents()).toEqual([[first, 'fcm-1']]);
  expect(writes).toBe(1);
  expect((await store.get(orgId, first))!.releasedAt).toBe(minutes(10));

  now = start + 60 * 60_000;
  expect(await release.releaseDue()).toBe(1);
  expect(await release.releaseDue()).toBe(0);
  expect(await createdEvents()).toEqual([
    [first, 'fcm-1'],
    [second, 'fcm-2'],
  ]);
  expect((await store.listOutstandingForDevice(orgId, devices[1]!.id)).map((o) => o.id)).toEqual([second]);
});

it('releases every due one in one look, batch after batch, and any organization\'s', async () => {
  const ids = [];
  for (let n = 0; n < 7; n += 1) ids.push(await schedule(devices[n % 2]!, minutes(1 + n)));
  const theirs = await schedule(devices[2]!, minutes(3));
  now = start + 30 * 60_000;

  expect(await releaseOn(store, { batchSize: 3 }).releaseDue()).toBe(8);
  expect((await createdEvents()).map(([id]) => id).sort((a, b) => a - b)).toEqual([...ids, theirs].sort((a, b) => a - b));
  expect(await createdEvents()).toContainEqual([theirs, 'fcm-other']);
  // One eventsWritten per batch that released something: 3 + 3 + 2.
  expect(writes).toBe(3);
});

it('a revoked one is never released; a rescheduled one only at its new time', async () => {
  const revoked = await schedule(devices[0]!, minutes(5));
  const moved = await schedule(devices[0]!, minutes(5));
  const template = templates[0]!;
  await revokeOneshot(deps)(createEnvelope(pushCommands.revokeOneshot, { deviceRef: devices[0]!.identifier, oneshotId: revoked }, { orgId }));
  await updateOneshot(deps)(
    createEnvelope(
      pushCommands.updateOneshot,
      { deviceRef: devices[0]!.identifier, oneshotId: moved, form_namespace: template.namespace, payload: {}, scheduled_at: minutes(50) },
      { orgId },
    ),
  );
  const release = releaseOn(store);

  now = start + 10 * 60_000;
  expect(await release.releaseDue()).toBe(0);
  now = start + 50 * 60_000;
  expect(await release.releaseDue()).toBe(1);
  expect(await createdEvents()).toEqual([[moved, 'fcm-1']]);
  expect((await store.get(orgId, revoked))!.releasedAt).toBeNull();
});

it('a device the directory no longer knows: released all the same, with no push token (its badge is still counted)', async () => {
  const id = await schedule(devices[1]!, minutes(5));
  directory.devices.splice(1, 1);
  now = start + 5 * 60_000;

  expect(await releaseOn(store).releaseDue()).toBe(1);
  expect(await createdEvents()).toEqual([[id, null]]);
});

it('the directory unreachable: the look fails and releases nothing; the timer looks again and releases it once it answers', async () => {
  const id = await schedule(devices[0]!, minutes(5));
  now = start + 5 * 60_000;
  directory.down = true;
  const release = releaseOn(store);

  await expect(release.releaseDue()).rejects.toMatchObject({ code: 'unavailable' });
  expect(await createdEvents()).toEqual([]);
  expect((await store.get(orgId, id))!.releasedAt).toBeNull();

  release.start();
  await waitFor(() => directory.lookups >= 3, { timeoutMs: 5000, description: 'the timer to look again after failed looks' });
  expect(await createdEvents()).toEqual([]);
  directory.down = false;
  await waitFor(async () => (await createdEvents()).length === 1, { timeoutMs: 5000, description: 'the release once the directory answers' });
  expect(await createdEvents()).toEqual([[id, 'fcm-1']]);
});

it('two releases on one database (two replicas) looking at the same moment release each dispatch once, with one event', async () => {
  const other = new SqlitePushStore(join(dir, 'push.sqlite'));
  try {
    const ids = [];
    for (let n = 0; n < 20; n += 1) ids.push(await schedule(devices[n % 2]!, minutes(5)));
    now = start + 5 * 60_000;
    const [here, there] = await Promise.all([releaseOn(store).releaseDue(), releaseOn(other).releaseDue()]);

    expect(here + there).toBe(20);
    expect((await createdEvents()).map(([id]) => id).sort((a, b) => a - b)).toEqual(ids);
  } finally {
    await Promise.all(releases.splice(0).map((r) => r.stop()));
    await other.close();
  }
});

it('start() looks at once; a write (wake) brings a look within an interval; stop() waits for the look in flight and looks no more', async () => {
  await schedule(devices[0]!, minutes(5));
  now = start + 5 * 60_000;
  const release = releaseOn(store, { intervalMs: 20 });
  release.start();
  await waitFor(async () => (await createdEvents()).length === 1, { timeoutMs: 5000, description: 'the first look to release it' });

  await schedule(devices[1]!, minutes(6));
  release.wake();
  now = start + 6 * 60_000;
  await waitFor(async () => (await createdEvents()).length === 2, { timeoutMs: 5000, description: 'a later look to release the next' });

  await release.stop();
  const lookupsAtStop = directory.lookups;
  await schedule(devices[0]!, minutes(7));
  release.wake();
  now = start + 7 * 60_000;
  await new Promise((resolve) => setTimeout(resolve, 200));
  expect(await createdEvents()).toHaveLength(2);
  // The create above looked its device and template up; the stopped release asked nothing.
  expect(directory.lookups - lookupsAtStop).toBe(2);
});

it('with nothing waiting it does not look every interval, and its safety net finds a dispatch another replica scheduled (no wake here)', async () => {
  const listDue = jest.spyOn(store, 'listDue');
  const release = releaseOn(store, { intervalMs: 10, safetyNetMs: 400 });
  release.start();
  await waitFor(() => listDue.mock.calls.length >= 2, { timeoutMs: 5000, description: 'the first look' });
  await new Promise((resolve) => setTimeout(resolve, 200));
  // One look (its listDue for what is due, one for what waits), not one every 10 ms.
  expect(listDue.mock.calls.length).toBe(2);

  const id = await schedule(devices[0]!, minutes(5));
  now = start + 5 * 60_000;
  await waitFor(async () => (await createdEvents()).length === 1, { timeoutMs: 5000, description: 'the safety net to release it' });
  expect((await createdEvents())[0]![0]).toBe(id);
  listDue.mockRestore();
});

it('on the real clock, times its next look for the earliest dispatch waiting', async () => {
  const releaseAt = new Date(Date.now() + 600).toISOString();
  const id = await schedule(devices[0]!, releaseAt);
  const release = new DispatchRelease(store, directory.lookup, () => (writes += 1), silent, { intervalMs: 10, safetyNetMs: 60_000 });
  releases.push(release);
  release.start();
  await waitFor(async () => (await createdEvents()).length === 1, { timeoutMs: 5000, description: 'the release at its time' });
  expect(Date.now()).toBeGreaterThanOrEqual(Date.parse(releaseAt));
  expect((await createdEvents())[0]![0]).toBe(id);
});
