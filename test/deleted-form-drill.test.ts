import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import amqplib from 'amqplib';
import Database from 'better-sqlite3';
import { waitFor } from '@formcast/testing';
import { createOrganization } from './support/fixtures';
import { createTemplate } from './support/push-fixtures';
import { distributedAmqpUrl, distributedModeEnabled, startDistributed, type ServiceProcess } from './support/start-distributed';
import { useStartedSystem } from './support/use-system';

/**
 * Drill: a form's `directory.form.deleted` lost. The directory announces a delete after it
 * commits, best effort; here the event is taken out of the delivery service's queue (purged)
 * while that service is stopped, as a directory killed between the two would lose it. Started
 * again, the delivery service must still remove the form's destinations: its deleted-forms
 * sweep asks the directory, over RabbitMQ, about every form that has destinations. The
 * embedded mode's case is services/delivery/test/service.test.ts. On SQLite only (the test
 * reads the delivery service's file).
 */

const adminToken = 'deleted-form-drill-admin-token-0123456789';
const drillTimeoutMs = 120_000;

const enabled = distributedModeEnabled && !process.env.MONGO_URL;
if (!enabled) console.warn('Deleted-form drill skipped: it needs the distributed topology on SQLite (E2E_DISTRIBUTED=0 or MONGO_URL set)');
const describeDrill = enabled ? describe : describe.skip;

/** The DATA_DIR a running process was started with. */
function dataDirOf(proc: ServiceProcess): string {
  const entry = readFileSync(`/proc/${proc.pid}/environ`, 'utf8')
    .split('\0')
    .find((line) => line.startsWith('DATA_DIR='));
  if (!entry) throw new Error(`${proc.name} has no DATA_DIR`);
  return entry.slice('DATA_DIR='.length);
}

const destinationBody = { destination: { format_selection: 'json_format', transport_selection: 'http_transport' }, http_transport: { uri: 'https://93.184.215.14/hooks/drill' } };

describeDrill('a deleted form whose announcement was lost', () => {
  const sys = useStartedSystem(
    () => startDistributed({ services: ['directory', 'delivery'], adminToken, env: { DELIVERY_SWEEP_INTERVAL_MS: '300' } }),
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
    const file = join(dataDirOf(delivery), 'delivery.sqlite');
    const destinationsOf = (formId: number) => {
      const db = new Database(file, { readonly: true });
      try {
        return db.prepare('SELECT COUNT(*) FROM destinations WHERE org_id = ? AND form_id = ?').pluck().get(org.orgId, formId) as number;
      } finally {
        db.close();
      }
    };
    expect([destinationsOf(deleted.id), destinationsOf(kept.id)]).toEqual([2, 1]);

    await delivery.signal('SIGTERM');
    expect((await sys.api.delete(`/organizations/${org.orgId}/forms/${deleted.id}`, { token: org.token })).status).toBe(200);
    const connection = await amqplib.connect(distributedAmqpUrl);
    try {
      const channel = await connection.createChannel();
      const queue = `${sys.running.prefix}.delivery.events`;
      // The announcement is there (with the form.changed beside it), and is lost.
      await waitFor(async () => (await channel.checkQueue(queue)).messageCount >= 1, { description: "the form's announcements in delivery's queue" });
      await channel.purgeQueue(queue);
      expect((await channel.checkQueue(queue)).messageCount).toBe(0);
    } finally {
      await connection.close();
    }
    expect(destinationsOf(deleted.id)).toBe(2);

    await delivery.start();
    await waitFor(() => destinationsOf(deleted.id) === 0, { timeoutMs: 30_000, description: "the deleted form's destinations removed by the sweep" });
    expect(destinationsOf(kept.id)).toBe(1);
    const listed = await sys.api.get(`/api/forms/${kept.id}/destinations.json`, { token: org.token });
    expect(listed.status).toBe(200);
    expect(listed.json().destinations).toHaveLength(1);
  }, drillTimeoutMs);
});
