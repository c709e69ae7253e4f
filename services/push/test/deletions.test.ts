import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InProcessBus } from '@formcast/bus';
import {
  createEnvelope,
  directoryCommands,
  pushCommands,
  type EnrolledDeviceView,
  type FormCreatedView,
  type OrganizationCreatedView,
  type OutstandingOneshotView,
} from '@formcast/contracts';
import { startDirectoryService } from '@formcast/directory';
import { createLogger, parseSettings, type RunningService } from '@formcast/platform';
import { waitFor } from '@formcast/testing';
import { startPushService } from '../src';

const logger = createLogger({ level: 'silent' });
const definition = { type: 'root', title: 'Inspection', children: [{ identifier: 'site', title: 'Site', type: 'text' }] };

/** The directory and push services on one in-process bus, on the data of DATA_DIR: the outstanding oneshots of a deleted device or form. */
describe('the push service and the oneshots of deleted devices and forms', () => {
  let dataDir: string;
  let bus: InProcessBus;
  let services: RunningService[];
  let orgId: number;
  let enrollmentCode: string;
  let namespace: string;
  let otherNamespace: string;
  let formId: number;

  async function start(starters: Array<typeof startPushService>, env: Record<string, string> = {}): Promise<void> {
    bus = new InProcessBus();
    services = [];
    for (const starter of starters) services.push(await starter({ bus, settings: parseSettings({ DATA_DIR: dataDir, ...env }), logger }));
    await bus.start();
  }
  async function stop(): Promise<void> {
    await bus.close();
    for (const service of services.reverse()) await service.stop();
  }
  const request = <T>(type: string, payload: unknown, org: number | null = orgId) => bus.request<T>(createEnvelope(type, payload, { orgId: org }));
  const outstanding = async () => (await request<OutstandingOneshotView[]>(pushCommands.listOrganizationOneshots, {})).map((o) => o.device_id);

  async function approvedDevice(identifier: string): Promise<number> {
    const { device } = await request<EnrolledDeviceView>(directoryCommands.enrollDevice, { enrollment_code: enrollmentCode, identifier, owner: 'Ada' }, null);
    await request(directoryCommands.approveDevice, { deviceId: device.id });
    return device.id;
  }
  const push = (identifier: string, template = namespace) => request(pushCommands.createOneshot, { deviceRef: identifier, form_namespace: template, payload: {} });
  const outstandingForms = async () => (await request<OutstandingOneshotView[]>(pushCommands.listOrganizationOneshots, {})).map((o) => o.namespace.split('?')[0]);

  /** The directory alone on a bus of its own runs `deletion`: its announcements reach no push service, as when a process dies between the delete and them. */
  async function withAnnouncementsLost(deletion: () => Promise<unknown>): Promise<void> {
    await stop();
    await start([startDirectoryService]);
    await deletion();
    await stop();
    await start([startDirectoryService, startPushService], { PUSH_DELETIONS_SWEEP_INTERVAL_MS: '200' });
  }

  beforeEach(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'push-deletions-'));
    await start([startDirectoryService, startPushService]);
    const org = await request<OrganizationCreatedView>(directoryCommands.createOrganization, { name: 'Acme' }, null);
    orgId = org.organization.id;
    enrollmentCode = org.organization.enrollment_code;
    const form = await request<FormCreatedView>(directoryCommands.createForm, { definition });
    namespace = form.namespace;
    formId = form.id;
    otherNamespace = (await request<FormCreatedView>(directoryCommands.createForm, { definition: { ...definition, title: 'Other' } })).namespace;
  });
  afterEach(async () => {
    await stop();
    rmSync(dataDir, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
  });

  it('revokes them when the directory announces the deletion', async () => {
    const gone = await approvedDevice('Android_gone');
    const staying = await approvedDevice('Android_staying');
    for (const identifier of ['Android_gone', 'Android_gone', 'Android_staying']) await push(identifier);
    expect((await outstanding()).sort()).toEqual([gone, gone, staying].sort());
    await request(directoryCommands.deleteDevice, { deviceId: gone });
    await waitFor(async () => !(await outstanding()).includes(gone), { description: "the deleted device's oneshots revoked" });
    expect(await outstanding()).toEqual([staying]);
  });

  it('revokes them at its next sweep when the announcement reached no push service', async () => {
    const gone = await approvedDevice('Android_gone');
    const staying = await approvedDevice('Android_staying');
    for (const identifier of ['Android_gone', 'Android_gone', 'Android_staying']) await push(identifier);

    await withAnnouncementsLost(() => request(directoryCommands.deleteDevice, { deviceId: gone }));
    expect((await outstanding()).sort()).toEqual([gone, gone, staying].sort());
    await waitFor(async () => !(await outstanding()).includes(gone), { description: "the sweep revoked the deleted device's oneshots" });
    expect(await outstanding()).toEqual([staying]);
  });

  it("revokes a deleted form's when the directory announces it, on every device, and keeps another form's", async () => {
    await approvedDevice('Android_one');
    await approvedDevice('Android_two');
    for (const identifier of ['Android_one', 'Android_one', 'Android_two']) await push(identifier);
    await push('Android_two', otherNamespace);
    await request(directoryCommands.deleteForm, { formId });
    await waitFor(async () => !(await outstandingForms()).includes(namespace), { description: "the deleted form's oneshots revoked" });
    expect(await outstandingForms()).toEqual([otherNamespace]);
  });

  it("revokes a deleted form's at its next sweep when the announcement reached no push service", async () => {
    await approvedDevice('Android_one');
    for (const template of [namespace, namespace, otherNamespace]) await push('Android_one', template);
    await withAnnouncementsLost(() => request(directoryCommands.deleteForm, { formId }));
    expect((await outstandingForms()).sort()).toEqual([namespace, namespace, otherNamespace].sort());
    await waitFor(async () => !(await outstandingForms()).includes(namespace), { description: "the sweep revoked the deleted form's oneshots" });
    expect(await outstandingForms()).toEqual([otherNamespace]);
  });
});
