import { startDirectoryService } from '@formcast/directory';
import { pushServiceStarter, startPushService } from '@formcast/push';
import { uniqueName, waitFor } from '@formcast/testing';
import { enrollDevice } from './support/fixtures';
import { notifierWithStandIn, testRedisUrl } from './support/notifier-with-stand-in';
import { pushJson } from './support/push-fixtures';
import { sideBySide } from './support/side-by-side';
import { systemModes } from './support/start-system';
import { useSystem } from './support/use-system';


/**
 * In-process modes: the push service runs on a clock the test moves forward, so a dispatch
 * scheduled an hour ahead is released when the test says. Distributed mode (node processes):
 * the real clock, a time a few seconds ahead and a short release interval.
 */
// The distributed runs wait for the real clock to pass a release ~10 s ahead.
jest.setTimeout(60_000);

describe.each(systemModes)('Scheduled dispatches end to end (%s)', (mode) => {
  const inProcess = mode !== 'distributed';
  let clockOffsetMs = 0;
  const clock = () => new Date(Date.now() + clockOffsetMs);
  const notifier = notifierWithStandIn('e2e_sched');

  const sys = useSystem(mode, {
    env: { PUSH_RELEASE_INTERVAL_MS: '200', ...(mode === 'rabbitmq' ? { REDIS_URL: testRedisUrl } : {}) },
    starters: [startDirectoryService, inProcess ? pushServiceStarter({ clock }) : startPushService, notifier.starter],
    organizations: 1,
    template: { type: 'root', title: 'Inspection', children: [{ identifier: 'site', type: 'text' }] },
  });
  afterAll(() => notifier.cleanUp());

  const enroll = (pushToken: string) => enrollDevice(sys.api, sys.org, { pushToken });

  const badge = async (identifier: string) => (await sys.api.get(`/clients/${identifier}/badge.json`, { token: sys.org.token })).json().badge as number;
  const alertsTitled = (token: string, title: string) => notifier.standIn().messagesTo(token).filter((m) => m.notification?.title === title);
  const deviceSees = async (secret: string) => ((await sys.api.get('/device/oneshots', { bearer: secret })).json().oneshots as Array<{ id: number }>).map((o) => o.id);
  const legacyListing = async (identifier: string) =>
    ((await sys.api.get(`/clients/${identifier}/oneshots.json`, { token: sys.org.token })).json() as Array<{ id: number }>).map((o) => o.id);

  /**
   * A time the release will reach: an hour ahead on the test's clock, or ahead on the real
   * one by enough for the checks before it on a busy machine (the distributed processes run
   * on the real clock).
   */
  let latestRelease = 0;
  const releaseTime = () => {
    const at = Date.now() + clockOffsetMs + (inProcess ? 3_600_000 : 10_000);
    latestRelease = Math.max(latestRelease, at);
    return new Date(at).toISOString();
  };
  /** Lets the release reach that time: moves the test's clock past it (in-process), or waits for the real clock to pass it. */
  const passReleaseTime = async () => {
    if (inProcess) clockOffsetMs += 3_700_000;
    else await new Promise((resolve) => setTimeout(resolve, Math.max(0, latestRelease - Date.now()) + 500));
  };

  /**
   * Each test waits for its release time. On the real clock (distributed) the two wait side by
   * side, each with a device of its own; in-process they take turns, as each moves the shared
   * test clock.
   */
  const scenario = sideBySide({ together: !inProcess });

  const releasedOnce = scenario(async () => {
    const token = `fcm-${uniqueName('tok')}`;
    const device = await enroll(token);
    const scheduledAt = releaseTime();
    const res = await pushJson(sys.api, sys.org, device.identifier, {
      form_namespace: sys.template.namespace,
      form_name: 'Later visit',
      payload: {},
      scheduled_at: scheduledAt,
      location: 'lat=35.77, long=-78.63',
      address: 'Raleigh',
      geofence_radius: 150,
    });
    expect(res.status).toBe(202);
    const id = res.json().oneshot_list[0].id as number;

    // Before its time: not on the device, not in the legacy listing, no badge, no alert.
    expect(await deviceSees(device.secret)).toEqual([]);
    expect((await sys.api.get(`/device/oneshots/${id}`, { bearer: device.secret })).status).toBe(404);
    expect(await legacyListing(device.identifier)).toEqual([]);
    expect(await badge(device.identifier)).toBe(0);
    expect(alertsTitled(token, 'Later visit')).toEqual([]);
    const listed = await sys.api.get(`/api/v3/devices/${device.identifier}/dispatches.json`, { token: sys.org.token });
    expect(listed.status).toBe(200);
    expect(listed.json().dispatches).toEqual([
      expect.objectContaining({ id, scheduled_at: new Date(scheduledAt).toISOString(), location: 'lat=35.77, long=-78.63', address: 'Raleigh', geofence_radius: 150 }),
    ]);

    await passReleaseTime();
    await waitFor(async () => (await deviceSees(device.secret)).includes(id), { timeoutMs: 15_000 });
    await waitFor(async () => (await badge(device.identifier)) === 1, { timeoutMs: 10_000 });
    await waitFor(() => alertsTitled(token, 'Later visit').length === 1, { timeoutMs: 10_000 });
    expect(await legacyListing(device.identifier)).toEqual([id]);
    // Once: a few more release intervals change nothing.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(alertsTitled(token, 'Later visit')).toHaveLength(1);
    expect(await badge(device.identifier)).toBe(1);
  });
  it('is invisible to its device and badge until its time, listed with scheduled_at by v3; then released, badged and notified once', () => releasedOnce());

  const revokedAndMoved = scenario(async () => {
    const token = `fcm-${uniqueName('tok')}`;
    const device = await enroll(token);
    const revokedOne = (
      await pushJson(sys.api, sys.org, device.identifier, { form_namespace: sys.template.namespace, form_name: 'Cancelled', payload: {}, scheduled_at: releaseTime() })
    ).json().oneshot_list[0].id as number;
    const moved = (
      await pushJson(sys.api, sys.org, device.identifier, { form_namespace: sys.template.namespace, form_name: 'Moved', payload: {}, scheduled_at: releaseTime() })
    ).json().oneshot_list[0].id as number;
    const known = (await pushJson(sys.api, sys.org, device.identifier, { form_namespace: sys.template.namespace, form_name: 'Marker', payload: {} })).json()
      .oneshot_list[0].id as number;
    await waitFor(async () => (await badge(device.identifier)) === 1, { timeoutMs: 10_000 });

    expect((await sys.api.delete(`/clients/${device.identifier}/oneshots/${revokedOne}`, { token: sys.org.token })).status).toBe(200);
    const farAway = new Date(Date.now() + clockOffsetMs + 30 * 24 * 3_600_000).toISOString();
    const updated = await sys.api.put(`/clients/${device.identifier}/oneshots/${moved}.json`, {
      token: sys.org.token,
      json: { payload: { site: 'Depot' }, scheduled_at: farAway },
    });
    expect(updated.status).toBe(200);

    await passReleaseTime();
    // The marker's alert has gone out; wait past the release time and a few intervals.
    await waitFor(() => alertsTitled(token, 'Marker').length === 1, { timeoutMs: 10_000 });
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(alertsTitled(token, 'Cancelled')).toEqual([]);
    expect(alertsTitled(token, 'Moved')).toEqual([]);
    expect(await badge(device.identifier)).toBe(1);
    expect(await deviceSees(device.secret)).toEqual([known]);
    // The rescheduled one is still outstanding for the API, with its new time.
    const page = (await sys.api.get(`/api/v3/devices/${device.identifier}/dispatches.json`, { token: sys.org.token })).json();
    expect(page.dispatches.map((d: { id: number; scheduled_at: string | null }) => [d.id, d.scheduled_at])).toEqual([
      [moved, new Date(farAway).toISOString()],
      [known, null],
    ]);
  });
  it('revoked before its time: never notified, the badge never moves; an update before then reschedules it silently', () => revokedAndMoved());
});
