import { createEnvelope, pushCommands, type Envelope, type ResolvedDevice, type ResolvedForm } from '@formcast/contracts';
import type { DirectoryLookup } from '../../src/directory-cache/directory-lookup';
import { createOneshot } from '../../src/handlers/create-oneshot';
import type { PushDeps } from '../../src/handlers/deps';
import { deviceSubmitOneshot } from '../../src/handlers/device-submit-oneshot';
import { revokeAllOneshots } from '../../src/handlers/revoke-all-oneshots';
import { revokeOneshot } from '../../src/handlers/revoke-oneshot';
import { submitForm } from '../../src/handlers/submit-form';
import { updateOneshot } from '../../src/handlers/update-oneshot';
import { SqlitePushStore } from '../../src/store';

/**
 * A command delivered twice (RabbitMQ redelivers what a replica that died held): the
 * handlers hand the envelope id to the store, so the second delivery changes nothing and
 * answers as the first did.
 */

const orgId = 1;
const device: ResolvedDevice = { id: 10, orgId, identifier: 'Android_van3', owner: 'Ada', pendingApproval: false, pushToken: 'fcm-token', groupIds: [1] };
const template: ResolvedForm = {
  id: 7,
  orgId,
  namespace: 'http://forms.example.com/inspection',
  name: 'Inspection',
  version: '1.00',
  groupId: 1,
  questions: [{ identifier: 'site', type: 'text' }],
};

const directory = {
  device: async () => device,
  form: async () => template,
  formById: async () => template,
} as unknown as DirectoryLookup;

let store: SqlitePushStore;
let deps: PushDeps;

beforeEach(() => {
  store = new SqlitePushStore(':memory:');
  deps = { store, directory, eventsWritten: () => undefined };
});

afterEach(() => store.close());

const command = (type: string, payload: unknown): Envelope => createEnvelope(type, payload, { orgId });

async function outboxSize(): Promise<number> {
  return (await store.unpublishedEvents(1000)).length;
}

async function createOne(): Promise<number> {
  const created = (await createOneshot(deps)(
    command(pushCommands.createOneshot, { deviceRef: device.identifier, form_namespace: template.namespace, payload: { site: 'North' } }),
  )) as { id: number };
  return created.id;
}

it('create: the same oneshot, created once', async () => {
  const create = command(pushCommands.createOneshot, { deviceRef: device.identifier, form_namespace: template.namespace, payload: {} });
  const first = await createOneshot(deps)(create);

  expect(await createOneshot(deps)(create)).toEqual(first);
  expect(await store.listOutstandingForDevice(orgId, device.id)).toHaveLength(1);
  expect(await outboxSize()).toBe(1);
});

it('update: the same answer, one change', async () => {
  const id = await createOne();
  const update = command(pushCommands.updateOneshot, {
    deviceRef: device.identifier,
    oneshotId: id,
    form_name: 'Renamed',
    payload: { site: 'South' },
  });
  const first = await updateOneshot(deps)(update);

  expect(await updateOneshot(deps)(update)).toEqual(first);
  expect(await outboxSize()).toBe(2);
});

it('revoke: answered again, not 404', async () => {
  const id = await createOne();
  const revoke = command(pushCommands.revokeOneshot, { deviceRef: device.identifier, oneshotId: id });
  await revokeOneshot(deps)(revoke);

  await expect(revokeOneshot(deps)(revoke)).resolves.toBeNull();
  expect(await outboxSize()).toBe(2);
});

it('revoke all: the same count, the same oneshots', async () => {
  await createOne();
  await createOne();
  const revokeAll = command(pushCommands.revokeAllOneshots, { deviceRef: device.identifier });
  expect(await revokeAllOneshots(deps)(revokeAll)).toEqual({ revoked: 2 });
  await createOne();

  expect(await revokeAllOneshots(deps)(revokeAll)).toEqual({ revoked: 2 });
  expect(await store.listOutstandingForDevice(orgId, device.id)).toHaveLength(1);
});

it('revoke all in chunks, killed after some: again, the rest revoked, the same count, one event each', async () => {
  const ids: number[] = [];
  for (let i = 0; i < 7; i += 1) ids.push(await createOne());
  const created = await store.unpublishedEvents(1000);
  await store.markPublished(created.map((entry) => entry.seq));
  const revokeAll = command(pushCommands.revokeAllOneshots, { deviceRef: device.identifier });
  // The process dies as the third chunk would be written: two chunks (2 + 2) committed.
  let writes = 0;
  const dying = Object.create(store, {
    changeOutstanding: {
      value: (...args: Parameters<SqlitePushStore['changeOutstanding']>) => {
        writes += 1;
        return writes === 3 ? Promise.reject(new Error('killed')) : store.changeOutstanding(...args);
      },
    },
  }) as SqlitePushStore;
  await expect(revokeAllOneshots({ ...deps, store: dying, revokeChunk: 2 })(revokeAll)).rejects.toThrow('killed');
  expect(await store.listOutstandingForDevice(orgId, device.id)).toHaveLength(3);

  expect(await revokeAllOneshots({ ...deps, revokeChunk: 2 })(revokeAll)).toEqual({ revoked: 7 });
  expect(await store.listOutstandingForDevice(orgId, device.id)).toEqual([]);
  const revokedEvents = await store.unpublishedEvents(1000);
  expect(revokedEvents.map((entry) => (entry.event.payload as { oneshotId: number }).oneshotId)).toEqual(ids);
  // Delivered once more: the same count, nothing written.
  expect(await revokeAllOneshots({ ...deps, revokeChunk: 2 })(revokeAll)).toEqual({ revoked: 7 });
  expect(await outboxSize()).toBe(7);
});

it('device submission: the same answer, not 409', async () => {
  const id = await createOne();
  const submit = command(pushCommands.deviceSubmitOneshot, { deviceId: device.id, oneshotId: id, answers: { site: 'Done' } });
  const first = await deviceSubmitOneshot(deps)(submit);

  expect(await deviceSubmitOneshot(deps)(submit)).toEqual(first);
  expect(await outboxSize()).toBe(3); // created, completed, submission received
});

it('form submission: the same submission, one event', async () => {
  const submit = command(pushCommands.submitForm, { deviceRef: String(device.id), formId: template.id, answers: { site: 'Done' } });
  const first = await submitForm(deps)(submit);

  expect(await submitForm(deps)(submit)).toEqual(first);
  expect(await outboxSize()).toBe(1);
});
