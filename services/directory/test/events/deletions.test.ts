import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { InProcessBus } from '@formcast/bus';
import {
  createEnvelope,
  directoryCommands,
  directoryEvents,
  type EnrolledDeviceView,
  type Envelope,
  type FormCreatedView,
  type OrganizationCreatedView,
} from '@formcast/contracts';
import { parseSettings, type RunningService } from '@formcast/platform';
import { waitFor } from '@formcast/testing';
import { startDirectoryService } from '../../src';

/**
 * What other services hear of a deletion: delivery removes a form's destinations on
 * `directory.form.deleted`; push withdraws a device's outstanding oneshots on `directory.device.deleted`.
 */
describe('the directory announcing a deletion', () => {
  let dataDir: string;
  let bus: InProcessBus;
  let directory: RunningService;

  beforeEach(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'directory-events-'));
    bus = new InProcessBus();
    directory = await startDirectoryService({ bus, settings: parseSettings({ DATA_DIR: dataDir }), logger: pino({ level: 'silent' }) });
    await bus.start();
  });

  afterEach(async () => {
    await bus.close();
    await directory.stop();
    rmSync(dataDir, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
  });

  /** The events of `types` heard from now on, in order. */
  function listen(types: string[]): Envelope[] {
    const heard: Envelope[] = [];
    for (const type of types) {
      bus.subscribe('listener', type, async (event) => {
        heard.push(event);
      });
    }
    return heard;
  }
  const createOrganization = () => bus.request<OrganizationCreatedView>(createEnvelope(directoryCommands.createOrganization, { name: 'Acme' }, { orgId: null }));

  it('announces form.changed, then form.deleted with the organization and form, once the form is gone', async () => {
    const heard = listen([directoryEvents.formChanged, directoryEvents.formDeleted]);
    const orgId = (await createOrganization()).organization.id;
    const form = await bus.request<FormCreatedView>(
      createEnvelope(directoryCommands.createForm, { definition: { type: 'root', title: 'Inspection', children: [{ identifier: 'a', title: 'A', type: 'text' }] } }, { orgId }),
    );
    await bus.request(createEnvelope(directoryCommands.deleteForm, { formId: form.id }, { orgId }));
    await waitFor(() => heard.length === 2, { description: 'two announcements' });
    expect(heard.map((event) => [event.type, event.orgId, event.payload])).toEqual([
      [directoryEvents.formChanged, orgId, { orgId, formId: form.id, namespace: form.namespace }],
      [directoryEvents.formDeleted, orgId, { orgId, formId: form.id }],
    ]);
  });

  it('announces device.changed, then device.deleted with the organization and device, once the device is gone', async () => {
    const org = await createOrganization();
    const orgId = org.organization.id;
    const { device } = await bus.request<EnrolledDeviceView>(
      createEnvelope(directoryCommands.enrollDevice, { enrollment_code: org.organization.enrollment_code, identifier: 'Android_gone', owner: 'Ada' }, { orgId: null }),
    );
    const heard = listen([directoryEvents.deviceChanged, directoryEvents.deviceDeleted]);
    await bus.request(createEnvelope(directoryCommands.deleteDevice, { deviceId: device.id }, { orgId }));
    await waitFor(() => heard.length === 2, { description: 'two announcements' });
    expect(heard.map((event) => [event.type, event.orgId, event.payload])).toEqual([
      [directoryEvents.deviceChanged, orgId, { orgId, deviceId: device.id, identifier: 'Android_gone' }],
      [directoryEvents.deviceDeleted, orgId, { orgId, deviceId: device.id }],
    ]);
  });
});
