import { join } from 'node:path';
import amqplib from 'amqplib';
import Database from 'better-sqlite3';
import { waitFor } from '@formcast/testing';
import { createOrganization, enrollDevice } from './support/fixtures';
import { createTemplate, pushJson } from './support/push-fixtures';
import { distributedAmqpUrl, distributedModeEnabled, startDistributed, type ServiceProcess } from './support/start-distributed';
import { useStartedSystem } from './support/use-system';

/**
 * Drills: a deletion's announcement lost. The directory announces a delete after it commits,
 * best effort; here the event is taken out of the consuming service's queue (purged) while
 * that service is stopped, as a directory killed between the two would lose it. Started again,
 * the service must still do what the event asked, through its sweep, which asks the directory
 * over RabbitMQ about every record it holds for a form or a device:
 * - a form's `directory.form.deleted`: delivery removes the form's destinations (the embedded
 *   mode's case: services/delivery/test/service.test.ts);
 * - a device's `directory.device.deleted`, and a form's `directory.form.deleted`: push revokes
 *   their outstanding oneshots (embedded: services/push/test/deletions.test.ts).
 * On SQLite only (the form's drill reads the delivery service's file).
 */

const adminToken = 'lost-deletions-drill-admin-token-0123456789';
const drillTimeoutMs = 120_000;

const enabled = distributedModeEnabled && !process.env.MONGO_URL;
if (!enabled) {
  console.warn(
    `Lost-deletions drill skipped: it runs the services as processes over RabbitMQ (${distributedAmqpUrl}) on SQLite; ` +
      'run it with E2E_MODES naming distributed (or unset), E2E_DISTRIBUTED not 0, and MONGO_URL unset',
  );
}
const describeDrill = enabled ? describe : describe.skip;

const destinationBody = { destination: { format_selection: 'json_format', transport_selection: 'http_transport' }, http_transport: { uri: 'https://93.184.215.14/hooks/drill' } };

/**
 * Stops `service`, runs `deletion`, then purges the service's event queue once the deletion's
 * `announcements` are in it, and starts the service again.
 */
async function withAnnouncementsLost(
  sys: { running: { prefix: string; processes: Map<string, ServiceProcess> } },
  service: string,
  announcements: number,
  deletion: () => Promise<void>,
): Promise<void> {
  const proc = sys.running.processes.get(service)!;
  await proc.signal('SIGTERM');
  await deletion();
  const connection = await amqplib.connect(distributedAmqpUrl);
  try {
    const channel = await connection.createChannel();
    const queue = `${sys.running.prefix}.${service}.events`;
    // The announcements are there, and are lost.
    await waitFor(async () => (await channel.checkQueue(queue)).messageCount === announcements, { description: `the announcements in ${service}'s queue` });
    await channel.purgeQueue(queue);
    expect((await channel.checkQueue(queue)).messageCount).toBe(0);
  } finally {
    await connection.close();
  }
  await proc.start();
}

describeDrill('a deletion whose announcement was lost', () => {
  const sys = useStartedSystem(
    () =>
      startDistributed({
        services: ['directory', 'delivery', 'push'],
        adminToken,
        env: { DELIVERY_SWEEP_INTERVAL_MS: '300', PUSH_DELETIONS_SWEEP_INTERVAL_MS: '300' },
      }),
    { hookTimeoutMs: drillTimeoutMs },
  );

  it("loses its form.deleted while delivery is stopped: delivery, started again, removes the form's destinations and keeps the others", async () => {
    const org = await createOrganization(sys.api, sys.adminToken);
    const deleted = await createTemplate(sys.api, org);
    const kept = await createTemplate(sys.api, org, { type: 'root', title: 'Kept', children: [{ identifier: 'note', type: 'text' }] });
    for (const form of [deleted, deleted, kept]) {
      const res = await sys.api.post(`/api/forms/${form.id}/destinations.json`, { token: org.token, json: destinationBody });
      expect(res.status).toBe(201);
    }
    const delivery = sys.running.processes.get('delivery')!;
    const file = join(delivery.dataDir, 'delivery.sqlite');
    const destinationsOf = (formId: number) => {
      const db = new Database(file, { readonly: true });
      try {
        return db.prepare('SELECT COUNT(*) FROM destinations WHERE org_id = ? AND form_id = ?').pluck().get(org.orgId, formId) as number;
      } finally {
        db.close();
      }
    };
    expect([destinationsOf(deleted.id), destinationsOf(kept.id)]).toEqual([2, 1]);

    // delivery hears form.deleted only.
    await withAnnouncementsLost(sys, 'delivery', 1, async () => {
      expect((await sys.api.delete(`/organizations/${org.orgId}/forms/${deleted.id}`, { token: org.token })).status).toBe(200);
    });
    await waitFor(() => destinationsOf(deleted.id) === 0, { timeoutMs: 30_000, description: "the deleted form's destinations removed by the sweep" });
    expect(destinationsOf(kept.id)).toBe(1);
    const listed = await sys.api.get(`/api/forms/${kept.id}/destinations.json`, { token: org.token });
    expect(listed.status).toBe(200);
    expect(listed.json().destinations).toHaveLength(1);
  }, drillTimeoutMs);

  it('loses its device.deleted while push is stopped: push, started again, revokes the outstanding oneshots of the device, and keeps the others', async () => {
    const org = await createOrganization(sys.api, sys.adminToken);
    const template = await createTemplate(sys.api, org);
    const gone = await enrollDevice(sys.api, org);
    const staying = await enrollDevice(sys.api, org);
    for (const device of [gone, gone, staying]) expect((await pushJson(sys.api, org, device.identifier, { form_namespace: template.namespace, payload: {} })).status).toBe(202);
    const outstandingDevices = async () =>
      ((await sys.api.get(`/organizations/${org.orgId}/oneshots.json`, { token: org.token })).json() as Array<{ device_id: number }>).map((o) => o.device_id).sort();
    expect(await outstandingDevices()).toEqual([gone.id, gone.id, staying.id].sort());

    // push hears device.changed (its cache), then device.deleted.
    await withAnnouncementsLost(sys, 'push', 2, async () => {
      expect((await sys.api.delete(`/organizations/${org.orgId}/devices/${gone.id}`, { token: org.token })).status).toBe(200);
    });
    await waitFor(async () => !(await outstandingDevices()).includes(gone.id), { timeoutMs: 30_000, description: "the deleted device's oneshots revoked by the sweep" });
    expect(await outstandingDevices()).toEqual([staying.id]);
  }, drillTimeoutMs);

  it("loses its form.deleted while push is stopped: push, started again, revokes the form's outstanding oneshots, and keeps another form's", async () => {
    const org = await createOrganization(sys.api, sys.adminToken);
    const deleted = await createTemplate(sys.api, org);
    const kept = await createTemplate(sys.api, org, { type: 'root', title: 'Kept', children: [{ identifier: 'note', type: 'text' }] });
    const device = await enrollDevice(sys.api, org);
    for (const template of [deleted, deleted, kept]) expect((await pushJson(sys.api, org, device.identifier, { form_namespace: template.namespace, payload: {} })).status).toBe(202);
    const outstandingForms = async () =>
      ((await sys.api.get(`/organizations/${org.orgId}/oneshots.json`, { token: org.token })).json() as Array<{ namespace: string }>).map((o) => o.namespace.split('?')[0]).sort();

    // push hears form.changed (its cache), then form.deleted.
    await withAnnouncementsLost(sys, 'push', 2, async () => {
      expect((await sys.api.delete(`/organizations/${org.orgId}/forms/${deleted.id}`, { token: org.token })).status).toBe(200);
    });
    await waitFor(async () => !(await outstandingForms()).includes(deleted.namespace), { timeoutMs: 30_000, description: "the deleted form's oneshots revoked by the sweep" });
    expect(await outstandingForms()).toEqual([kept.namespace]);
  }, drillTimeoutMs);
});
