import type { Bus } from '@formcast/bus';
import { FirebaseNotificationSender, startNotifier } from '@formcast/notifier';
import type { ServiceStarter } from '@formcast/platform';
import { uniqueName, waitFor } from '@formcast/testing';
import type { ApiClient } from './support/api-client';
import { CreatedEventTap } from './support/created-event-tap';
import { FcmStandIn, fixedTokenCredential } from './support/fcm-stand-in';
import { createOrganization, type TestOrganization } from './support/fixtures';
import { createTemplate, pushJson } from './support/push-fixtures';
import { distributedModeEnabled, startDistributed, type DistributedSystem } from './support/start-distributed';
import { useStartedSystem } from './support/use-system';

/**
 * Drills of the release of scheduled dispatches (issue 14) on the distributed topology: the
 * push service as a process of its own (or two replicas on one SQLite file and one command
 * queue), killed with SIGKILL around the moment its dispatches become due. Each dispatch goes
 * to a device of its own with a push token, so its notification is the one alert that device
 * gets (a device's waiting notifications merge). Afterwards every dispatch must be released
 * exactly once: one `created` event written (one envelope id, heard by a tap of the test's
 * own), its device's badge 1, listed once on the legacy paths, and exactly one alert at the
 * FCM stand-in. The outbox is at least once (a relay killed between the broker's confirm and
 * the removal, or two replicas' relays reading the same rows, send an event again); the
 * notifier announces a oneshot once however many copies of its `created` arrive. How many
 * dispatches had copies is logged, so a run shows whether the drill met any.
 */

const adminToken = 'release-drill-admin-token-0123456789';
/** Looks for due dispatches this often; short, so the kill lands among looks. */
const releaseIntervalMs = 100;
/**
 * Every drill enrolls its 50 devices at once from this one address: more than enrollment's
 * per-address burst (RATE_LIMIT_ENROLLMENT_BURST, 60) over the drills of one system.
 */
const drillEnv = {
  PUSH_RELEASE_INTERVAL_MS: String(releaseIntervalMs),
  COMMAND_TIMEOUT_MS: '2000',
  RATE_LIMIT_ENROLLMENT_BURST: '10000',
};
const dispatchesPerDrill = 50;
/**
 * From the start of the scheduling to the first due time: room to create them all before.
 * Measured on this machine as it runs: 1.5 × the time enrolling the drill's devices took (two
 * requests a device, where scheduling is one a dispatch: three times the room it needs), and
 * at least `minLeadMs`.
 */
const minLeadMs = 1000;
const leadPerEnrollmentMs = 1.5;
/** After everything arrived: several looks of every replica and the outbox relay's 1 s poll, for a late double to show. */
const settleMs = 2500;
const drillTimeoutMs = 150_000;

interface ScheduledDispatch {
  id: number;
  name: string;
  deviceIdentifier: string;
  pushToken: string;
}

interface ReleaseDrill {
  api: ApiClient;
  org: TestOrganization;
  dispatches: ScheduledDispatch[];
  /** The first due time (ms since the epoch). */
  firstDueAt: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** Drill timing, not synchronisation: the moment to act at. */
const sleepUntil = (at: number) => sleep(Math.max(0, at - Date.now()));

/** `count` items through `worker`, four at a time, results in order. */
async function inParallel<T>(count: number, worker: (n: number) => Promise<T>): Promise<T[]> {
  const results: T[] = new Array(count);
  let next = 0;
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      while (next < count) {
        const n = next++;
        results[n] = await worker(n);
      }
    }),
  );
  return results;
}

async function enrollWithToken(api: ApiClient, org: TestOrganization, pushToken: string): Promise<string> {
  const identifier = uniqueName('Android_release').replace(/[^A-Za-z0-9_.:-]/g, '');
  const res = await api.post('/devices/enroll', { json: { enrollment_code: org.enrollmentCode, identifier, push_token: pushToken } });
  if (res.status !== 201) throw new Error(`enrolling answered ${res.status}: ${res.text}`);
  const approved = await api.post(`/organizations/${org.orgId}/devices/${res.json().device.id}/approve`, { token: org.token });
  if (approved.status !== 200) throw new Error(`approving answered ${approved.status}: ${approved.text}`);
  return identifier;
}

/**
 * An organization of its own, a device per dispatch, and the dispatches scheduled: the n-th
 * due `spreadMs × n / count` after the first due time, the lead from now. A scheduling that
 * overran the first due time is logged (those dispatches were released as they were created:
 * still exactly once, but the kill may have missed its moment).
 */
async function scheduleDrill(api: ApiClient, spreadMs: number): Promise<ReleaseDrill> {
  const org = await createOrganization(api, adminToken);
  const template = await createTemplate(api, org, { type: 'root', title: 'Release drill', children: [{ identifier: 'note', type: 'text' }] });
  const tag = uniqueName('release');
  const enrolling = Date.now();
  const devices = await inParallel(dispatchesPerDrill, async (n) => {
    const pushToken = `fcm-${tag}-${n}`;
    return { pushToken, deviceIdentifier: await enrollWithToken(api, org, pushToken) };
  });
  const firstDueAt = Date.now() + Math.max(minLeadMs, Math.round(leadPerEnrollmentMs * (Date.now() - enrolling)));
  const dispatches = await inParallel(dispatchesPerDrill, async (n) => {
    const name = `${tag}-${n}`;
    const scheduledAt = new Date(firstDueAt + Math.floor((spreadMs * n) / dispatchesPerDrill)).toISOString();
    const res = await pushJson(api, org, devices[n]!.deviceIdentifier, { form_namespace: template.namespace, form_name: name, payload: {}, scheduled_at: scheduledAt });
    if (res.status !== 202) throw new Error(`scheduling answered ${res.status}: ${res.text}`);
    return { id: res.json().oneshot_list[0].id as number, name, ...devices[n]! };
  });
  if (Date.now() > firstDueAt) console.warn(`scheduling the drill's dispatches ended ${Date.now() - firstDueAt} ms after the first was due`);
  return { api, org, dispatches, firstDueAt };
}

/** The drill's system: directory and push as processes, the notifier (with the FCM stand-in) and the tap as peers in this process. */
function useReleaseDrillSystem() {
  let standIn: FcmStandIn;
  const tap = new CreatedEventTap();
  const notifierWithStandIn: ServiceStarter<Bus> = (context) =>
    startNotifier(context, {
      sender: new FirebaseNotificationSender({ credential: fixedTokenCredential(), projectId: standIn.projectId, httpAgent: standIn.agent() }),
    });
  beforeAll(async () => {
    standIn = await FcmStandIn.start();
  });
  const sys = useStartedSystem(
    () => startDistributed({ services: ['directory', 'push'], peers: [notifierWithStandIn, tap.starter], adminToken, env: drillEnv }),
    { hookTimeoutMs: drillTimeoutMs },
  );
  // After the system has stopped (afterAll hooks run in the order they are declared).
  afterAll(() => standIn?.close());
  return {
    sys,
    tap,
    alertsFor: (dispatch: ScheduledDispatch) => standIn.messagesTo(dispatch.pushToken).filter((m) => m.notification?.title === dispatch.name).length,
  };
}

type DrillSystem = ReturnType<typeof useReleaseDrillSystem>;

async function badgeOf(drill: ReleaseDrill, dispatch: ScheduledDispatch): Promise<number> {
  const res = await drill.api.get(`/clients/${dispatch.deviceIdentifier}/badge.json`, { token: drill.org.token });
  if (res.status !== 200) throw new Error(`the badge answered ${res.status}: ${res.text}`);
  return res.json<{ badge: number }>().badge;
}

/** Every dispatch released exactly once: one event written, exactly one alert, badge 1, listed once on the legacy paths. */
async function expectEachReleasedOnce({ tap, alertsFor }: DrillSystem, drill: ReleaseDrill): Promise<void> {
  const { dispatches } = drill;
  const missing = (has: (d: ScheduledDispatch) => boolean) => dispatches.filter((d) => !has(d)).map((d) => d.name);
  await waitFor(() => missing((d) => tap.copiesOf(d.id) > 0).length === 0, {
    timeoutMs: 30_000,
    description: 'a created event of every dispatch',
  }).catch((error: Error) => {
    throw new Error(`${error.message}; none heard for ${missing((d) => tap.copiesOf(d.id) > 0).join(', ')}`);
  });
  await waitFor(() => missing((d) => alertsFor(d) > 0).length === 0, { timeoutMs: 20_000, description: 'an alert for every dispatch' });
  // Past the last due time and the restart: a dispatch released twice would show now.
  await sleep(settleMs);

  // Released once: one created event written (one envelope id), whoever released it, whatever was killed.
  expect(dispatches.filter((d) => tap.writtenFor(d.id) !== 1).map((d) => `${d.name}: ${tap.writtenFor(d.id)} created events written`)).toEqual([]);
  // Alerted exactly once, however many copies of its created event the outbox sent.
  expect(
    dispatches
      .filter((d) => alertsFor(d) !== 1)
      .map((d) => `${d.name}: ${alertsFor(d)} alerts, its created event heard ${tap.copiesOf(d.id)} times (at +${tap.copyTimes(d.id).join(', +')} ms)`),
  ).toEqual([]);
  const sentAgain = dispatches.filter((d) => tap.copiesOf(d.id) > 1);
  if (sentAgain.length > 0) {
    console.info(
      `${sentAgain.length} of ${dispatches.length} released dispatches had their created event sent more than once by the outbox, each alerted once: ` +
        sentAgain.map((d) => `${d.name} copies at +${tap.copyTimes(d.id).join(', +')} ms`).join('; '),
    );
  }
  const badges = await inParallel(dispatches.length, (n) => badgeOf(drill, dispatches[n]!));
  expect(dispatches.filter((_, n) => badges[n] !== 1).map((d, n) => `${d.deviceIdentifier}: badge ${badges[n]}`)).toEqual([]);

  const listed = (await drill.api.get(`/organizations/${drill.org.orgId}/oneshots.json`, { token: drill.org.token })).json<Array<{ id: number; name: string }>>();
  expect(listed.map((o) => o.id)).toEqual(dispatches.map((d) => d.id).sort((a, b) => a - b));
  const onDevices = await inParallel(dispatches.length, async (n) => {
    const res = await drill.api.get(`/clients/${dispatches[n]!.deviceIdentifier}/oneshots.json`, { token: drill.org.token });
    return res.json<Array<{ id: number }>>().map((o) => o.id);
  });
  expect(dispatches.filter((d, n) => onDevices[n]!.join() !== String(d.id)).map((d, n) => `${d.deviceIdentifier}: ${onDevices[n]!.join()}`)).toEqual([]);
}

if (!distributedModeEnabled) console.warn('Scheduled release drills skipped: E2E_DISTRIBUTED=0 leaves the distributed topology out');
const describeDistributed = distributedModeEnabled ? describe : describe.skip;

// One system for every drill; the replica drills come last, with a second push process started for them.
describeDistributed('scheduled release drills', () => {
  const drillSystem = useReleaseDrillSystem();
  const { sys } = drillSystem;

  describe('the push process killed (SIGKILL) around a release', () => {
    /**
     * `spreadMs`: the due times span this much from the first; `killAtMs`: when push is
     * killed, from the first due time; `downMs`: how long it stays down.
     */
    it.each([
      { when: 'just before they become due, down while they do', spreadMs: 0, killAtMs: -300, downMs: 1500 },
      { when: 'as they become due (a look in flight)', spreadMs: 0, killAtMs: 80, downMs: 0 },
      { when: 'while they are being released, one after another', spreadMs: 2500, killAtMs: 1200, downMs: 0 },
    ])(`${dispatchesPerDrill} dispatches, push killed $when and started again: each released exactly once`, async ({ spreadMs, killAtMs, downMs }) => {
      const system: DistributedSystem = sys.running;
      const push = system.processes.get('push')!;
      const drill = await scheduleDrill(sys.api, spreadMs);

      await sleepUntil(drill.firstDueAt + killAtMs);
      await push.signal('SIGKILL');
      expect(push.exits.at(-1)).toBe('SIGKILL');
      await sleep(downMs);
      await push.start();

      await expectEachReleasedOnce(drillSystem, drill);
    }, drillTimeoutMs);
  });

  describe('two push replicas on one store release the same due dispatches', () => {
    beforeAll(async () => {
      await sys.running.startReplica('push');
    }, drillTimeoutMs);

    it(`${dispatchesPerDrill} dispatches due at the same moment, both replicas looking every ${releaseIntervalMs} ms: each released exactly once`, async () => {
      const drill = await scheduleDrill(sys.api, 0);
      expect([sys.running.processes.get('push')!.running, sys.running.processes.get('push-2')!.running]).toEqual([true, true]);
      await expectEachReleasedOnce(drillSystem, drill);
    }, drillTimeoutMs);

    it(`${dispatchesPerDrill} dispatches due one after another, one replica killed (SIGKILL) among them: the other releases the rest, each exactly once`, async () => {
      const drill = await scheduleDrill(sys.api, 2500);
      const second = sys.running.processes.get('push-2')!;

      await sleepUntil(drill.firstDueAt + 1200);
      await second.signal('SIGKILL');
      expect(second.exits.at(-1)).toBe('SIGKILL');

      await expectEachReleasedOnce(drillSystem, drill);
      await second.start();
    }, drillTimeoutMs);
  });
});
