import { join } from 'node:path';
import Database from 'better-sqlite3';
import { waitFor } from '@formcast/testing';
import type { ApiResponse } from './support/api-client';
import { createOrganization, type TestOrganization } from './support/fixtures';
import { distributedModeEnabled, startDistributed } from './support/start-distributed';
import { useStartedSystem } from './support/use-system';

/**
 * Drill: the directory process killed (SIGKILL) after a keyed create's commit and before its
 * Idempotency-Key's completion (the keys are a file of their own, directory-idempotency.sqlite).
 * The point is reached with the files' own locks, no hook in the service: the test holds the
 * directory's write lock while the request comes in, takes the key file's once the claim is
 * written, lets the create commit, and kills the process while its completion waits. The
 * client then retries with the same key until answered: the create runs again under the first
 * attempt's command id and must answer what the first attempt did (201 with the same groups,
 * the same form) and create nothing more. On SQLite only (the locks are SQLite's).
 */

const adminToken = 'directory-drill-admin-token-0123456789';
const drillTimeoutMs = 180_000;
/** The client's retries, answered 409 while the killed attempt's claim is young. */
const retryForMs = 30_000;

const enabled = distributedModeEnabled && !process.env.MONGO_URL;
if (!enabled) console.warn('Directory create drill skipped: it needs the distributed topology on SQLite (E2E_DISTRIBUTED=0 or MONGO_URL set)');
const describeDrill = enabled ? describe : describe.skip;

const definition = { type: 'root', title: 'Drill form', children: [{ identifier: 'note', type: 'text' }] };

describeDrill('directory killed between a keyed create and its key', () => {
  const sys = useStartedSystem(() => startDistributed({ services: ['directory'], adminToken, env: { COMMAND_TIMEOUT_MS: '10000' } }), {
    hookTimeoutMs: drillTimeoutMs,
  });
  let org: TestOrganization;

  beforeEach(async () => {
    org = await createOrganization(sys.api, sys.adminToken);
  }, drillTimeoutMs);

  const post = (path: string, key: string, json: unknown): Promise<ApiResponse | { failed: string }> =>
    sys.api.post(path, { token: org.token, json, headers: { 'idempotency-key': key } }).catch((error: Error) => ({ failed: error.message }));

  type Create = 'groups' | 'form';
  type Restart = 'at once';

  // Restarted at once, the directory gets the killed attempt's command again (the same id)
  // while the gateway still waits. Restarted once the gateway has answered 504, the client's
  // retry would take over the claim only after a minute (runningWindowMs): that path is
  // services/directory/test/handlers/keyed-creates-after-crash.test.ts, on a moved clock with
  // real stores, to keep a minute of waiting out of the suite. One create a kill: a create
  // waiting for the write lock holds the process's event loop (SQLite's busy wait), so a
  // second request would not be claimed meanwhile.
  const cases: Array<[Create, Restart]> = [
    ['groups', 'at once'],
    ['form', 'at once'],
  ];

  it.each(cases)('%s created, the directory killed before the key completed and restarted %s: the retry with the same key answers what the killed attempt created, nothing created twice', async (create, restarted) => {
    const directory = sys.running.processes.get('directory')!;
    const dataDir = directory.dataDir;
    const records = new Database(join(dataDir, 'directory.sqlite'));
    const keys = new Database(join(dataDir, 'directory-idempotency.sqlite'));
    const path = create === 'groups' ? `/organizations/${org.orgId}/groups.json` : `/organizations/${org.orgId}/forms`;
    const body = create === 'groups' ? ['North', 'South'] : definition;
    const key = `drill-${create}-${Date.now()}`;
    const claimed = () => keys.prepare('SELECT reply FROM idempotency_keys WHERE org_id = ? AND key = ?').get(org.orgId, key) as { reply: string | null } | undefined;
    const groupNames = () => records.prepare('SELECT name FROM groups WHERE org_id = ? ORDER BY id').pluck().all(org.orgId) as string[];
    const formIds = () => records.prepare('SELECT id FROM forms WHERE org_id = ? ORDER BY id').pluck().all(org.orgId) as number[];
    const committed = () => (create === 'groups' ? groupNames().includes('South') : formIds().length === 1);

    try {
      // The create waits for the directory's write lock, its key already claimed.
      records.exec('BEGIN IMMEDIATE');
      const first = post(path, key, body);
      await waitFor(async () => claimed() !== undefined, { timeoutMs: 4000, intervalMs: 10, description: 'the key to be claimed' });
      // The key's completion waits for the key file's write lock; the create commits.
      keys.exec('BEGIN IMMEDIATE');
      records.exec('COMMIT');
      await waitFor(async () => committed(), { timeoutMs: 4000, intervalMs: 10, description: 'the create to commit' });
      await directory.signal('SIGKILL');
      expect(directory.exits.at(-1)).toBe('SIGKILL');
      keys.exec('COMMIT');
      expect(claimed()).toEqual({ reply: null });
      const createdFirst = create === 'groups' ? groupNames() : formIds();

      await directory.start();
      const firstAnswer = await first;

      // The client retries with the same key until answered: 409 while the killed attempt's claim is young.
      const seen: string[] = [];
      let answer: ApiResponse | undefined;
      await waitFor(
        async () => {
          const res = await post(path, key, body);
          seen.push('status' in res ? String(res.status) : res.failed);
          if ('status' in res && res.status !== 409 && res.status !== 503 && res.status !== 504) answer = res;
          return answer !== undefined;
        },
        { timeoutMs: retryForMs, intervalMs: 1000, description: 'the retry to be answered' },
      );

      expect(answer!.status).toBe(201);
      if (create === 'groups') {
        const created = answer!.json().groups as Array<{ id: number; name: string }>;
        expect(created.map((group) => group.name)).toEqual(['North', 'South']);
        const listed = (await sys.api.get(path, { token: org.token })).json().groups as Array<{ id: number; name: string }>;
        expect(listed.map((group) => group.name)).toEqual(['Default', 'North', 'South']);
        expect(created.map((group) => group.id)).toEqual(listed.slice(1).map((group) => group.id));
      } else {
        expect(answer!.json()).toMatchObject({ id: createdFirst[0] });
      }
      expect(create === 'groups' ? groupNames() : formIds()).toEqual(createdFirst);

      // The killed attempt's request got the same answer (its command came back to the restarted
      // process under its id), or the gateway's timeout; never a 500.
      if ('status' in firstAnswer && firstAnswer.status === 201) expect(firstAnswer.json()).toEqual(answer!.json());
      const statuses = ['status' in firstAnswer ? String(firstAnswer.status) : firstAnswer.failed, ...seen];
      expect(statuses.filter((status) => !['201', '409', '503', '504'].includes(status))).toEqual([]);
    } finally {
      if (records.inTransaction) records.exec('ROLLBACK');
      if (keys.inTransaction) keys.exec('ROLLBACK');
      records.close();
      keys.close();
    }
  }, drillTimeoutMs);
});
