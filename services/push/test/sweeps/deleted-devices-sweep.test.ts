import { randomUUID } from 'node:crypto';
import { pushEvents, type ResolvedDevice } from '@formcast/contracts';
import { createLogger } from '@formcast/platform';
import { deviceExists } from '../../src/directory-cache/device-exists';
import { oneshotEvent } from '../../src/domain/oneshot-events';
import { newOneshot } from '../../src/domain/oneshot-lifecycle';
import { SqlitePushStore } from '../../src/store/sqlite-push-store';
import { DeletedDevicesSweep } from '../../src/sweeps/deleted-devices-sweep';
import { DirectoryStandIn } from '../support/directory-stand-in';
import { oneshotRequestFor } from '../support/oneshot-fixtures';

/**
 * The sweep for oneshots of deleted devices (src/sweeps/deleted-devices-sweep.ts), over the
 * SQLite store and the real directory cache, the directory stood in for on an in-process bus:
 * a device removed from the stand-in is not_found, as a deleted one.
 */

const logger = createLogger({ level: 'silent' });
const device = (id: number, pendingApproval = false): ResolvedDevice => ({ id, orgId: 1, identifier: `Android_${id}`, owner: 'Ada', pendingApproval, pushToken: `fcm-${id}`, groupIds: [1] });

describe('DeletedDevicesSweep', () => {
  let store: SqlitePushStore;
  let directory: DirectoryStandIn;

  beforeEach(async () => {
    store = new SqlitePushStore(':memory:');
    // 12 waits for approval: it exists, so its oneshots stay.
    directory = await DirectoryStandIn.start([device(10), device(11), device(12, true)], []);
  });
  afterEach(async () => {
    await directory.close();
    await store.close();
  });

  const push = (deviceId: number) => store.create(newOneshot(oneshotRequestFor(deviceId), new Date().toISOString()), oneshotEvent(pushEvents.oneshotCreated, null, 'r'), randomUUID());
  const sweepOn = (pageSize = 2) =>
    new DeletedDevicesSweep({ store, eventsWritten: () => undefined }, (orgId, deviceId, requestId) => deviceExists(directory.lookup, orgId, deviceId, requestId), {
      intervalMs: 60_000,
      pageSize,
      logger,
    });

  it('revokes the outstanding oneshots of every device the directory no longer has, across pages, with their events; keeps the others', async () => {
    for (const deviceId of [10, 11, 11, 12, 13, 13, 13, 14]) await push(deviceId);
    const sweep = sweepOn(2);

    expect(await sweep.sweepOnce()).toBe(4);
    expect(await Promise.all([10, 11, 12, 13, 14].map((id) => store.countOutstanding(1, id)))).toEqual([1, 2, 1, 0, 0]);
    const revokedEvents = (await store.unpublishedEvents(100)).filter((entry) => entry.event.type === pushEvents.oneshotRevoked);
    expect(revokedEvents.map((entry) => (entry.event.payload as { deviceId: number; pushToken: string | null }).deviceId).sort()).toEqual([13, 13, 13, 14]);
    expect(revokedEvents.every((entry) => (entry.event.payload as { pushToken: string | null }).pushToken === null)).toBe(true);
    const lookups = directory.lookups;
    expect(await sweep.sweepOnce()).toBe(0);
    expect(directory.lookups - lookups).toBe(3); // 10, 11 and 12 asked again (the cache's TTL is 0 here); 13 and 14 have nothing outstanding
  });

  it('stops at a directory that does not answer, revoking nothing it could not check', async () => {
    for (const deviceId of [13, 14]) await push(deviceId);
    directory.down = true;
    await expect(sweepOn().sweepOnce()).rejects.toThrow('The directory is down');
    expect(await Promise.all([13, 14].map((id) => store.countOutstanding(1, id)))).toEqual([1, 1]);
  });
});
