import { serviceStarters } from '@formcast/embedded';
import { waitFor } from '@formcast/testing';
import { createOrganization, enrollDevice, type TestDevice, type TestOrganization } from './support/fixtures';
import { createTemplate } from './support/push-fixtures';
import { distributedModeEnabled, processNameOf, startDistributed, type DistributedSystem } from './support/start-distributed';
import { useStartedSystem } from './support/use-system';

/**
 * Bulk dispatch drill on the distributed topology: the push process is killed (SIGKILL)
 * while a bulk request of 500 is in flight, started again, and the client sends the same
 * request with the same Idempotency-Key until it is answered. Whatever the kill interrupted
 * (the command not yet taken, the items half written, the answer not yet sent), every item
 * ends up created exactly once: the command comes back to the restarted process under its
 * id (or the key's claim is taken over under the first command's id), and each item is
 * remembered under `<command id>:<index>`.
 */

const adminToken = 'bulk-drill-admin-token-0123456789ab';
const drillTimeoutMs = 180_000;
const items = 500;
/** A key left claimed by a killed process is taken over after a minute (@formcast/idempotency). */
const retryForMs = 100_000;
const services = serviceStarters.map((start) => processNameOf(start) ?? 'unknown');
const withNotifier = services.includes('notifier');

type Answer = { status: number; text: string } | { failed: string };

if (!distributedModeEnabled) console.warn('Bulk dispatch drill skipped: E2E_DISTRIBUTED=0 leaves the distributed topology out');
const describeDistributed = distributedModeEnabled ? describe : describe.skip;

describeDistributed('bulk dispatch drill: push killed during a bulk request of 500', () => {
  const sys = useStartedSystem(() => startDistributed({ services, adminToken, env: { COMMAND_TIMEOUT_MS: '10000' } }), { hookTimeoutMs: drillTimeoutMs });
  let org: TestOrganization;
  let namespace: string;
  let devices: TestDevice[];

  beforeAll(async () => {
    org = await createOrganization(sys.api, sys.adminToken);
    namespace = (await createTemplate(sys.api, org, { type: 'root', title: 'Drill', children: [{ identifier: 'note', type: 'text' }] })).namespace;
    devices = [];
    for (let i = 0; i < 25; i += 1) devices.push(await enrollDevice(sys.api, org));
  }, drillTimeoutMs);

  async function post(system: DistributedSystem, key: string, body: string): Promise<Answer> {
    try {
      const res = await fetch(`${system.api.baseUrl}/api/v3/dispatches/bulk.json`, {
        method: 'POST',
        headers: { authorization: `Basic ${Buffer.from(`${org.token}:x`).toString('base64')}`, 'content-type': 'application/json', 'idempotency-key': key },
        body,
        signal: AbortSignal.timeout(30_000),
      });
      return { status: res.status, text: await res.text() };
    } catch (error) {
      return { failed: (error as Error).message };
    }
  }

  // The delay between sending and the kill moves where the kill lands: before push takes the
  // command, while it looks devices up and writes, or after it answered.
  it.each([0, 150, 400])('killed %i ms after the request was sent: after the restart and a retry with the same key, each item exists once', async (killAfterMs) => {
    const system = sys.running;
    const push = system.processes.get('push')!;
    const round = `r${killAfterMs}`;
    const names = Array.from({ length: items }, (_, i) => `${round}-${i}`);
    const body = JSON.stringify({
      dispatches: names.map((form_name, i) => ({ device: devices[i % devices.length]!.identifier, form_namespace: namespace, form_name, payload: { note: form_name } })),
    });
    const key = `bulk-drill-${round}-${Date.now()}`;

    const first = post(system, key, body);
    await new Promise((resolve) => setTimeout(resolve, killAfterMs));
    await push.signal('SIGKILL');
    expect(push.exits.at(-1)).toBe('SIGKILL');
    await push.start();
    const firstAnswer = await first;
    // Answered, whatever it was: the work (200), the command's timeout (504), never a 500.
    expect('status' in firstAnswer && [200, 503, 504].includes(firstAnswer.status) ? 'answered' : firstAnswer).toBe('answered');

    // The client retries with the same key until it gets the answer; 409 while the killed
    // attempt's claim is young, 503/504 while push comes back.
    let answer = { failed: 'not sent' } as Answer;
    const retried: string[] = [];
    await waitFor(
      async () => {
        answer = await post(system, key, body);
        retried.push('status' in answer ? String(answer.status) : answer.failed);
        return 'status' in answer && answer.status === 200;
      },
      { timeoutMs: retryForMs, intervalMs: 1000, description: 'the retried bulk request to be answered 200' },
    ).catch((error: Error) => {
      throw new Error(`${error.message}; answers: ${retried.join(', ')}`);
    });
    const results = JSON.parse((answer as { text: string }).text).results as Array<{ status: number; id: number; name: string }>;
    expect(results.map((r) => r.status)).toEqual(names.map(() => 202));
    expect(results.map((r) => r.name)).toEqual(names);
    if ('status' in firstAnswer && firstAnswer.status === 200) expect(JSON.parse(firstAnswer.text).results).toEqual(results);
    const unexpected = retried.filter((status) => !['200', '409', '503', '504'].includes(status));
    expect(unexpected).toEqual([]);

    // Nothing lost, nothing doubled: each device lists its items of this round once, by the ids answered.
    const answeredIds = new Map(results.map((r) => [r.name, r.id]));
    for (const [d, device] of devices.entries()) {
      const listed = (await system.api.get(`/clients/${device.identifier}/oneshots.json`, { token: org.token })).json<Array<{ id: number; name: string }>>();
      const ofRound = listed.filter((o) => o.name.startsWith(`${round}-`));
      const expected = names.filter((_, i) => i % devices.length === d);
      expect(ofRound.map((o) => o.name).sort()).toEqual([...expected].sort());
      expect(ofRound.every((o) => answeredIds.get(o.name) === o.id)).toBe(true);
      if (withNotifier && d < 3) {
        const badge = async () => (await system.api.get(`/clients/${device.identifier}/badge.json`, { token: org.token })).json<{ badge: number }>().badge;
        await waitFor(async () => (await badge()) === listed.length, { timeoutMs: 20_000, description: `${device.identifier}'s badge to reach ${listed.length}` });
      }
    }
    const organization = (await system.api.get(`/organizations/${org.orgId}/oneshots.json`, { token: org.token })).json<Array<{ name: string }>>();
    expect(organization.filter((o) => o.name.startsWith(`${round}-`))).toHaveLength(items);
  }, drillTimeoutMs);
});
