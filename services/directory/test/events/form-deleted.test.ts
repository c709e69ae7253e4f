import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { InProcessBus } from '@formcast/bus';
import { createEnvelope, directoryCommands, directoryEvents, type Envelope, type FormCreatedView, type OrganizationCreatedView } from '@formcast/contracts';
import { parseSettings, type RunningService } from '@formcast/platform';
import { waitFor } from '@formcast/testing';
import { startDirectoryService } from '../../src';

/** What other services hear when a form is deleted: delivery removes the form's destinations on `directory.form.deleted`. */
describe('the directory announcing a deleted form', () => {
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

  it('announces form.changed, then form.deleted with the organization and form, once the form is gone', async () => {
    const heard: Envelope[] = [];
    for (const type of [directoryEvents.formChanged, directoryEvents.formDeleted]) {
      bus.subscribe('listener', type, async (event) => {
        heard.push(event);
      });
    }
    const org = await bus.request<OrganizationCreatedView>(createEnvelope(directoryCommands.createOrganization, { name: 'Acme' }, { orgId: null }));
    const orgId = org.organization.id;
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
});
