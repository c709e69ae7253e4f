import { InProcessBus } from '@formcast/bus';
import {
  createEnvelope,
  directoryCommands,
  pushCommands,
  pushEvents,
  type BulkDispatchResult,
  type Envelope,
  type ResolvedDevice,
  type ResolvedForm,
} from '@formcast/contracts';
import { AppError, createLogger } from '@formcast/platform';
import { DirectoryLookup } from '../../src/directory-cache/directory-lookup';
import { createDispatches } from '../../src/handlers/create-dispatches';
import type { PushDeps } from '../../src/handlers/deps';
import { SqlitePushStore } from '../../src/store';

/**
 * Bulk dispatch in the push service: items created alone, answered in order, over the real
 * directory cache. The directory is stood in for on an in-process bus (its resolve commands
 * only), so the test can count the lookups a bulk command costs.
 */

const orgId = 1;
const devices: ResolvedDevice[] = [
  { id: 10, orgId, identifier: 'Android_van1', owner: 'Ada', pendingApproval: false, pushToken: 'fcm-1', groupIds: [1] },
  { id: 11, orgId, identifier: 'Android_van2', owner: 'Bo', pendingApproval: false, pushToken: null, groupIds: [1] },
  { id: 12, orgId, identifier: 'Android_waiting', owner: 'Cy', pendingApproval: true, pushToken: null, groupIds: [1] },
];
const template: ResolvedForm = {
  id: 7,
  orgId,
  namespace: 'http://forms.example.com/inspection',
  name: 'Inspection',
  version: '1.00',
  groupId: 1,
  questions: [
    { identifier: 'site', type: 'text' },
    { identifier: 'visits', type: 'integer' },
  ],
};

const partsTemplate: ResolvedForm = {
  ...template,
  id: 8,
  namespace: 'http://forms.example.com/parts',
  questions: [{ identifier: 'parts', type: 'group', children: [{ identifier: 'part_no', type: 'text' }] }],
};
const templates = [template, partsTemplate];

let bus: InProcessBus;
let store: SqlitePushStore;
let deps: PushDeps;
let lookups: { devices: number; forms: number };
let directoryDown: boolean;

beforeEach(async () => {
  lookups = { devices: 0, forms: 0 };
  directoryDown = false;
  bus = new InProcessBus({ logger: createLogger({ level: 'silent' }) });
  bus.handleCommand('directory', directoryCommands.resolveDevice, async (command) => {
    lookups.devices += 1;
    if (directoryDown) throw new AppError('unavailable', 'The directory is down');
    const { ref } = command.payload as { ref: string };
    const device = devices.find((d) => d.identifier === ref || String(d.id) === ref);
    if (!device) throw new AppError('not_found', `Device ${ref} does not exist`);
    return device;
  });
  bus.handleCommand('directory', directoryCommands.resolveForm, async (command) => {
    lookups.forms += 1;
    const { namespace } = command.payload as { namespace: string };
    const form = templates.find((t) => t.namespace === namespace);
    if (!form) throw new AppError('not_found', `form_namespace: no form of this organization has namespace ${namespace}`);
    return form;
  });
  await bus.start();
  store = new SqlitePushStore(':memory:');
  deps = { store, directory: new DirectoryLookup(bus, { ttlMs: 10_000, timeoutMs: 2000 }), eventsWritten: () => undefined };
});

afterEach(async () => {
  await store.close();
  await bus.close();
});

const bulk = (dispatches: unknown[], fromXml?: boolean): Envelope =>
  createEnvelope(pushCommands.createDispatches, { dispatches, ...(fromXml === undefined ? {} : { fromXml }) }, { orgId });
const run = (command: Envelope) => createDispatches(deps)(command) as Promise<BulkDispatchResult[]>;
const good = (device: string, extra: Record<string, unknown> = {}) => ({ device, form_namespace: template.namespace, payload: { site: 'North' }, ...extra });

async function created(): Promise<Envelope[]> {
  return (await store.unpublishedEvents(10_000)).map((entry) => entry.event).filter((event) => event.type === pushEvents.oneshotCreated);
}

it('answers each item in order: the good ones created (202, id, namespace, name), each bad one with the error it would get alone', async () => {
  const results = await run(
    bulk([
      good('Android_van1', { form_name: 'Visit Acme', form_description: 'Gate 4' }),
      good('Android_nowhere'),
      good('Android_van2', { form_namespace: 'http://forms.example.com/unknown' }),
      good('Android_van2', { payload: { site: 'x', unknown_question: 'y' } }),
      good('Android_van2', { scheduled_at: 'tomorrow' }),
      good('Android_van2', { send_at: '2030-01-01T00:00:00Z' }),
      { form_namespace: template.namespace, payload: {} },
      good('Android_waiting'),
      good('11'),
    ]),
  );

  expect(results).toEqual([
    { status: 202, id: expect.any(Number), namespace: expect.stringMatching(/^http:\/\/forms\.example\.com\/inspection\?[0-9a-f-]{36}$/), name: 'Visit Acme' },
    { status: 404, error: { code: 'not_found', message: 'Device Android_nowhere does not exist' } },
    { status: 400, error: { code: 'invalid', message: expect.stringMatching(/^form_namespace: no form of this organization has the namespace/) } },
    { status: 400, error: { code: 'invalid', message: expect.stringContaining('unknown_question') } },
    { status: 400, error: { code: 'invalid', message: expect.stringMatching(/^scheduled_at: /) } },
    { status: 400, error: { code: 'invalid', message: expect.stringMatching(/^send_at: unknown field; the fields are device, form_namespace, /) } },
    { status: 400, error: { code: 'invalid', message: "device: is required: the device's identifier" } },
    { status: 400, error: { code: 'invalid', message: 'Device Android_waiting is waiting for approval' } },
    { status: 202, id: expect.any(Number), namespace: expect.any(String), name: 'Inspection' },
  ]);

  const stored = await Promise.all([store.get(orgId, (results[0] as { id: number }).id), store.get(orgId, (results[8] as { id: number }).id)]);
  expect(stored.map((o) => [o?.deviceId, o?.name, o?.description, o?.payload])).toEqual([
    [10, 'Visit Acme', 'Gate 4', { site: 'North' }],
    [11, 'Inspection', '', { site: 'North' }],
  ]);
  // One created event each, for the notifier (badge and alert); none for the bad ones.
  expect(await created()).toHaveLength(2);
});

it('looks each distinct device and template up once, however many items name them', async () => {
  const names = Array.from({ length: 600 }, (_, i) => `Item ${i}`);
  const items = names.map((form_name, i) => good(i % 2 === 0 ? 'Android_van1' : 'Android_van2', { form_name }));
  const results = await run(bulk(items));

  expect(results.filter((r) => r.status === 202)).toHaveLength(600);
  expect(lookups).toEqual({ devices: 2, forms: 1 });
  const listed = await store.listOutstandingForDevice(orgId, 10);
  expect(listed.map((o) => o.name)).toEqual(names.filter((_, i) => i % 2 === 0));
});

it('redelivered, the same command creates nothing twice and answers as the first time', async () => {
  const command = bulk([good('Android_van1'), good('Android_nowhere'), good('Android_van2')]);
  const first = await run(command);
  const again = await run(command);

  expect(again).toEqual(first);
  expect(await created()).toHaveLength(2);
});

it('a directory that does not answer fails the whole command before anything is written', async () => {
  directoryDown = true;
  await expect(run(bulk([good('Android_van1'), good('Android_van2')]))).rejects.toMatchObject({ code: 'unavailable' });
  expect(await created()).toHaveLength(0);

  // Once it answers again, the same command goes through.
  directoryDown = false;
  expect((await run(bulk([good('Android_van1')])))[0]).toMatchObject({ status: 202 });
});

it('XML items: a group given once stands for one repetition, as on the single create from XML', async () => {
  const item = { device: 'Android_van1', form_namespace: partsTemplate.namespace, payload: { parts: { part_no: 'A-1' } } };
  expect((await run(bulk([item], true)))[0]).toMatchObject({ status: 202 });
  expect((await run(bulk([item], false)))[0]).toMatchObject({ status: 400, error: { code: 'invalid', message: expect.stringMatching(/^payload\.parts/) } });
});

it('refuses a command without items, with too many, or with an item that is not an object, as a whole', async () => {
  await expect(run(bulk([]))).rejects.toMatchObject({ code: 'invalid' });
  await expect(run(bulk(Array.from({ length: 1001 }, () => good('Android_van1'))))).rejects.toMatchObject({ code: 'invalid' });
  await expect(run(bulk([good('Android_van1'), 'not a dispatch']))).rejects.toMatchObject({ code: 'invalid' });
  expect(await created()).toHaveLength(0);
});
