import { createEnvelope, pushCommands, pushEvents, type DispatchPageView, type DispatchView, type Envelope, type ResolvedDevice, type ResolvedForm } from '@formcast/contracts';
import { createOneshot } from '../../src/handlers/create-oneshot';
import type { PushDeps } from '../../src/handlers/deps';
import { getDispatch } from '../../src/handlers/get-dispatch';
import { listDeviceDispatches } from '../../src/handlers/list-device-dispatches';
import { listOrganizationDispatches } from '../../src/handlers/list-organization-dispatches';
import { revokeDispatch } from '../../src/handlers/revoke-dispatch';
import { revokeOneshot } from '../../src/handlers/revoke-oneshot';
import { SqlitePushStore } from '../../src/store';
import { DirectoryStandIn } from '../support/directory-stand-in';

/**
 * The v3 dispatch handlers (list for a device, list for the organization, get, revoke by id)
 * on what the store contract and the end-to-end suite leave to them: paging past the end and
 * at the limits, another organization's ids, include_inputs, ended and scheduled dispatches,
 * and a revoke command delivered twice.
 */

const devices: ResolvedDevice[] = [
  { id: 10, orgId: 1, identifier: 'Android_van1', owner: 'Ada', pendingApproval: false, pushToken: 'fcm-1', groupIds: [1] },
  { id: 11, orgId: 1, identifier: 'Android_van2', owner: 'Bo', pendingApproval: false, pushToken: null, groupIds: [1] },
  { id: 20, orgId: 2, identifier: 'Android_theirs', owner: 'Cy', pendingApproval: false, pushToken: 'fcm-theirs', groupIds: [2] },
];
const [van1, van2, theirs] = devices as [ResolvedDevice, ResolvedDevice, ResolvedDevice];
const templates: ResolvedForm[] = [1, 2].map((orgId) => ({
  id: 6 + orgId,
  orgId,
  namespace: `http://forms.example.com/inspection-${orgId}`,
  name: 'Inspection',
  version: '1.00',
  groupId: orgId,
  questions: [{ identifier: 'site', type: 'text' }],
}));

const now = new Date('2026-03-01T09:00:00.000Z');
const later = '2026-03-02T09:00:00.000Z';

let store: SqlitePushStore;
let directory: DirectoryStandIn;
let deps: PushDeps;

beforeEach(async () => {
  store = new SqlitePushStore(':memory:');
  directory = await DirectoryStandIn.start(devices, templates);
  deps = { store, directory: directory.lookup, eventsWritten: () => undefined, clock: () => now };
});

afterEach(async () => {
  await directory.close();
  await store.close();
});

const command = (type: string, orgId: number, payload: unknown): Envelope => createEnvelope(type, payload, { orgId });

async function dispatch(device: ResolvedDevice, fields: Record<string, unknown> = {}): Promise<number> {
  const template = templates.find((t) => t.orgId === device.orgId)!;
  const created = (await createOneshot(deps)(
    command(pushCommands.createOneshot, device.orgId, { deviceRef: device.identifier, form_namespace: template.namespace, payload: {}, ...fields }),
  )) as { id: number };
  return created.id;
}

const listDevice = (orgId: number, payload: object) =>
  listDeviceDispatches(deps)(command(pushCommands.listDeviceDispatches, orgId, payload)) as Promise<DispatchPageView>;
const listOrganization = (orgId: number, payload: object) =>
  listOrganizationDispatches(deps)(command(pushCommands.listOrganizationDispatches, orgId, payload)) as Promise<DispatchPageView>;
const get = (orgId: number, payload: object) => getDispatch(deps)(command(pushCommands.getDispatch, orgId, payload)) as Promise<DispatchView>;
const ids = (page: DispatchPageView) => page.dispatches.map((d) => d.id);

async function eventsOf(type: string): Promise<Array<{ oneshotId: number; pushToken: string | null }>> {
  return (await store.unpublishedEvents(1000)).filter((e) => e.event.type === type).map((e) => e.event.payload as { oneshotId: number; pushToken: string | null });
}

describe('listing', () => {
  it('pages past the end: no dispatches, the page asked and the total; items at 1 and at the limit of 1000', async () => {
    const mine = [await dispatch(van1), await dispatch(van1, { scheduled_at: later }), await dispatch(van1)];

    expect(await listDevice(1, { deviceRef: van1.identifier, page: 4, items: 1 })).toEqual({ dispatches: [], page: 4, items: 1, total_count: 3 });
    expect(ids(await listDevice(1, { deviceRef: van1.identifier, page: 3, items: 1 }))).toEqual([mine[2]]);
    expect(await listDevice(1, { deviceRef: String(van1.id), items: 1000 })).toMatchObject({ page: 1, items: 1000, total_count: 3 });
    expect(ids(await listOrganization(1, { page: 1, items: 1000 }))).toEqual(mine);
    expect(await listOrganization(1, { page: 2, items: 1000 })).toEqual({ dispatches: [], page: 2, items: 1000, total_count: 3 });
  });

  it.each([
    [{ items: 1001 }, /items/],
    [{ items: 0 }, /items/],
    [{ page: 0 }, /page/],
    [{ page: 1.5 }, /page/],
  ])('refuses %j as invalid, naming it', async (paging, named) => {
    await expect(listOrganization(1, paging)).rejects.toMatchObject({ code: 'invalid', message: expect.stringMatching(named) });
    await expect(listDevice(1, { deviceRef: van1.identifier, ...paging })).rejects.toMatchObject({ code: 'invalid' });
  });

  it('lists the outstanding ones, scheduled included, ended ones not; the organization listing only its own', async () => {
    const scheduled = await dispatch(van1, { scheduled_at: later });
    const revoked = await dispatch(van1);
    const kept = await dispatch(van2);
    await dispatch(theirs);
    await revokeOneshot(deps)(command(pushCommands.revokeOneshot, 1, { deviceRef: van1.identifier, oneshotId: revoked }));

    const page = await listDevice(1, { deviceRef: van1.identifier });
    expect(page).toMatchObject({ page: 1, items: 100, total_count: 1 });
    expect(page.dispatches).toEqual([expect.objectContaining({ id: scheduled, scheduled_at: later, device_id: van1.id })]);
    expect(page.dispatches[0]).not.toHaveProperty('inputs');
    expect(ids(await listOrganization(1, {}))).toEqual([scheduled, kept]);
  });

  it("another organization's device is not_found, by identifier or by id", async () => {
    await dispatch(theirs);
    await expect(listDevice(1, { deviceRef: theirs.identifier })).rejects.toMatchObject({ code: 'not_found' });
    await expect(listDevice(1, { deviceRef: String(theirs.id) })).rejects.toMatchObject({ code: 'not_found' });
  });
});

describe('get', () => {
  it('include_inputs adds the payload as pushed; without it there are no inputs', async () => {
    const id = await dispatch(van1, { payload: { site: 'North gate' }, location: 'lat=35.77, long=-78.63', geofence_radius: 150 });

    const plain = await get(1, { dispatchId: id });
    expect(plain).toMatchObject({ id, location: 'lat=35.77, long=-78.63', geofence_radius: 150, scheduled_at: null, version: '1.00' });
    expect(plain).not.toHaveProperty('inputs');
    expect(await get(1, { dispatchId: id, include_inputs: false })).toEqual(plain);
    expect(await get(1, { dispatchId: id, include_inputs: true })).toEqual({ ...plain, inputs: { site: 'North gate' } });
  });

  it('reads a dispatch in any state: ended, or scheduled and not yet released', async () => {
    const revoked = await dispatch(van1);
    await revokeOneshot(deps)(command(pushCommands.revokeOneshot, 1, { deviceRef: van1.identifier, oneshotId: revoked }));
    const scheduled = await dispatch(van1, { scheduled_at: later });

    expect(await get(1, { dispatchId: revoked })).toMatchObject({ id: revoked });
    expect(await get(1, { dispatchId: scheduled })).toMatchObject({ id: scheduled, scheduled_at: later });
  });

  it("another organization's dispatch, or an unknown id, is not_found", async () => {
    const theirId = await dispatch(theirs);
    await expect(get(1, { dispatchId: theirId, include_inputs: true })).rejects.toMatchObject({ code: 'not_found' });
    await expect(get(1, { dispatchId: theirId + 1 })).rejects.toMatchObject({ code: 'not_found' });
    expect(await get(2, { dispatchId: theirId })).toMatchObject({ id: theirId });
  });
});

describe('revoke by id', () => {
  const revoke = (orgId: number, dispatchId: number, id?: string) => {
    const envelope = command(pushCommands.revokeDispatch, orgId, { dispatchId });
    return revokeDispatch(deps)(id ? { ...envelope, id } : envelope);
  };

  it("another organization's dispatch is not_found and stays outstanding, with no event", async () => {
    const theirId = await dispatch(theirs);
    await expect(revoke(1, theirId)).rejects.toMatchObject({ code: 'not_found' });
    expect((await store.get(2, theirId))!.state).toBe('outstanding');
    expect(await eventsOf(pushEvents.oneshotRevoked)).toEqual([]);
  });

  it('a released one: revoked with an event carrying its device\'s push token; a scheduled one: revoked silently', async () => {
    const released = await dispatch(van1);
    const scheduled = await dispatch(van1, { scheduled_at: later });

    expect(await revoke(1, released)).toBeNull();
    expect(await revoke(1, scheduled)).toBeNull();
    expect((await store.get(1, scheduled))!.state).toBe('revoked');
    expect(await eventsOf(pushEvents.oneshotRevoked)).toEqual([expect.objectContaining({ oneshotId: released, pushToken: 'fcm-1' })]);
  });

  it('the same command twice answers again with one event; another revoke of the ended one is not_found', async () => {
    const id = await dispatch(van2);
    const commandId = 'revoke-twice';

    expect(await revoke(1, id, commandId)).toBeNull();
    expect(await revoke(1, id, commandId)).toBeNull();
    expect(await eventsOf(pushEvents.oneshotRevoked)).toEqual([expect.objectContaining({ oneshotId: id, pushToken: null })]);
    await expect(revoke(1, id)).rejects.toMatchObject({ code: 'not_found' });
  });
});

describe('the v2/v3 create answering the dispatch (answerWithDispatch)', () => {
  const create = (fields: Record<string, unknown>) =>
    createOneshot(deps)(
      command(pushCommands.createOneshot, 1, { deviceRef: van1.identifier, form_namespace: templates[0]!.namespace, payload: { site: 'Depot' }, ...fields }),
    ) as Promise<{ id: number; dispatch?: DispatchView }>;

  it('answers the view push.dispatch.get shows of the dispatch just created, scheduled or not', async () => {
    for (const fields of [{}, { scheduled_at: later, location: 'lat=1, long=2', address: 'Depot', geofence_radius: 150.5 }]) {
      const created = await create({ ...fields, answerWithDispatch: true });
      expect(created.dispatch).toEqual(await get(1, { dispatchId: created.id }));
    }
  });

  it('answers the created view alone when not asked (the oneshot path and bulk items)', async () => {
    const created = await create({});
    expect(created).not.toHaveProperty('dispatch');
    expect(Object.keys(created).sort()).toEqual(['id', 'name', 'namespace']);
  });
});
