import { randomUUID } from 'node:crypto';
import { pushEvents, type ResolvedDevice, type ResolvedForm } from '@formcast/contracts';
import { createLogger } from '@formcast/platform';
import { oneshotEvent } from '../../src/domain/oneshot-events';
import { newOneshot } from '../../src/domain/oneshot-lifecycle';
import { SqlitePushStore } from '../../src/store/sqlite-push-store';
import { DeletionsSweep } from '../../src/sweeps/deletions-sweep';
import { DirectoryStandIn } from '../support/directory-stand-in';
import { oneshotRequestFor } from '../support/oneshot-fixtures';

/**
 * The sweep for oneshots of deleted devices and forms (src/sweeps/deletions-sweep.ts), over
 * the SQLite store and the real directory cache, the directory stood in for on an in-process
 * bus: a device or template removed from the stand-in is not_found, as a deleted one.
 */

const logger = createLogger({ level: 'silent' });
const device = (id: number, pendingApproval = false): ResolvedDevice => ({ id, orgId: 1, identifier: `Android_${id}`, owner: 'Ada', pendingApproval, pushToken: `fcm-${id}`, groupIds: [1] });
const template = (id: number): ResolvedForm => ({ id, orgId: 1, namespace: `http://x/xforms/${id}`, name: 'Form', version: '1.00', groupId: 1, questions: [] });

describe('DeletionsSweep', () => {
  let store: SqlitePushStore;
  let directory: DirectoryStandIn;

  beforeEach(async () => {
    store = new SqlitePushStore(':memory:');
    // 12 waits for approval: it exists, so its oneshots stay.
    directory = await DirectoryStandIn.start([device(10), device(11), device(12, true)], [template(1), template(2)]);
  });
  afterEach(async () => {
    await directory.close();
    await store.close();
  });

  const push = (deviceId: number, formId = 1) =>
    store.create(newOneshot({ ...oneshotRequestFor(deviceId), formId }, new Date().toISOString()), oneshotEvent(pushEvents.oneshotCreated, null, 'r'), randomUUID());
  const sweepOn = (pageSize = 2) => new DeletionsSweep({ store, directory: directory.lookup, eventsWritten: () => undefined }, { intervalMs: 60_000, pageSize, logger });
  const revokedEvents = async () =>
    (await store.unpublishedEvents(100)).filter((entry) => entry.event.type === pushEvents.oneshotRevoked).map((entry) => entry.event.payload as { deviceId: number; pushToken: string | null });

  it('revokes the outstanding oneshots of every device the directory no longer has, across pages, with their events; keeps the others', async () => {
    for (const deviceId of [10, 11, 11, 12, 13, 13, 13, 14]) await push(deviceId);

    expect(await sweepOn(2).sweepOnce()).toBe(4);
    expect(await Promise.all([10, 11, 12, 13, 14].map((id) => store.countOutstanding(1, id)))).toEqual([1, 2, 1, 0, 0]);
    const events = await revokedEvents();
    expect(events.map((payload) => payload.deviceId).sort()).toEqual([13, 13, 13, 14]);
    expect(events.every((payload) => payload.pushToken === null)).toBe(true);
    const lookups = directory.lookups;
    expect(await sweepOn(2).sweepOnce()).toBe(0);
    // 10, 11 and 12 asked again, and form 1 (the cache's TTL is 0 here); 13 and 14 have nothing outstanding.
    expect(directory.lookups - lookups).toBe(4);
  });

  it("revokes the outstanding oneshots of a form the directory no longer has, on each device, their events carrying the device's push token", async () => {
    for (const [deviceId, formId] of [[10, 1], [10, 2], [10, 2], [11, 2], [11, 1]] as const) await push(deviceId, formId);
    directory.templates.splice(directory.templates.findIndex((t) => t.id === 2), 1);

    expect(await sweepOn().sweepOnce()).toBe(3);
    expect(await Promise.all([10, 11].map((id) => store.countOutstanding(1, id)))).toEqual([1, 1]);
    expect(await store.devicesWithOutstandingOfForm(1, 2)).toEqual([]);
    expect((await revokedEvents()).map((payload) => [payload.deviceId, payload.pushToken])).toEqual([
      [10, 'fcm-10'],
      [10, 'fcm-10'],
      [11, 'fcm-11'],
    ]);
  });

  it('stops at a directory that does not answer, revoking nothing it could not check', async () => {
    for (const deviceId of [13, 14]) await push(deviceId);
    directory.down = true;
    await expect(sweepOn().sweepOnce()).rejects.toThrow('The directory is down');
    expect(await Promise.all([13, 14].map((id) => store.countOutstanding(1, id)))).toEqual([1, 1]);
  });
});
