import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Bus } from '@formcast/bus';
import { createEnvelope, type ApiTokenView, type DeadLetterView, type OrganizationView } from '@formcast/contracts';
import { serviceStarters } from '@formcast/embedded';
import type { ServiceStarter } from '@formcast/platform';
import { uniqueName, waitFor } from '@formcast/testing';
import { closedPort, ensureCliBuilt, runFormcast, type CliRun } from './support/formcast-cli';
import { systemModes } from './support/start-system';
import { useSystem } from './support/use-system';

ensureCliBuilt();

const probeService = 'cli-probe';
const probeEvent = 'cli-probe.happened';

/** A service of the test's own whose event handler fails while `failing`: it makes dead letters. */
function deadLetterProbe() {
  const probe = { failing: true, handled: [] as string[], bus: undefined as Bus | undefined };
  const starter: ServiceStarter<Bus> = async ({ bus }) => {
    probe.bus = bus;
    bus.subscribe(probeService, probeEvent, async (event) => {
      if (probe.failing) throw new Error('the probe is failing on purpose');
      probe.handled.push(event.id);
    });
    return { name: probeService, ping: async () => undefined, stop: async () => undefined };
  };
  return { probe, starter };
}

function expectExit(run: CliRun, code: number): void {
  if (run.code !== code) throw new Error(`formcast exited ${run.code}, not ${code}\nstdout: ${run.stdout}\nstderr: ${run.stderr}`);
}

describe('formcast without a server', () => {
  it.each([
    [['--help']],
    [['organizations', '--help']],
    [['organizations', 'create', '--help']],
    [['tokens', 'issue', '--help']],
    [['tokens', 'revoke', '--help']],
    [['enrollment-code', 'rotate', '--help']],
    [['dead-letters', 'replay', '--help']],
  ])('prints help for %j and exits 0', async (args) => {
    const run = await runFormcast(args);
    expectExit(run, 0);
    expect(run.stdout).toContain('Usage: formcast');
    expect(run.stdout).toContain('Exit codes:');
  });

  it.each([
    ['an unknown command', ['frobnicate']],
    ['a missing argument', ['organizations', 'create']],
    ['an organization id that is not a number', ['tokens', 'list', 'abc']],
    ['a token id that is not a number', ['tokens', 'revoke', '1', '-3']],
    ['a malformed queue name', ['dead-letters', 'list', 'No Such/Queue']],
    ['an unknown option', ['organizations', 'list', '--colour']],
  ])('exits 1 on %s, saying what is wrong', async (_what, args) => {
    const run = await runFormcast(args, { FORMCAST_ADMIN_TOKEN: 'unused' });
    expectExit(run, 1);
    expect(run.stderr).toMatch(/error/i);
    expect(run.stdout).toBe('');
  });

  it('exits 1 when no admin token can be found, naming where it looked', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'formcast-cli-empty-'));
    try {
      const run = await runFormcast(['organizations', 'list'], { DATA_DIR: dataDir });
      expectExit(run, 1);
      expect(run.stderr).toContain(join(dataDir, 'admin-token'));
    } finally {
      rmSync(dataDir, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
    }
  });

  it('exits 3 when the server cannot be reached', async () => {
    const port = await closedPort();
    const run = await runFormcast(['organizations', 'list', '--url', `http://127.0.0.1:${port}`, '--admin-token', 'whatever']);
    expectExit(run, 3);
    expect(run.stderr).toContain(`Cannot reach http://127.0.0.1:${port}`);
  });
});

describe.each(systemModes)('formcast against a running system (%s)', (mode) => {
  const { probe, starter } = deadLetterProbe();
  const system = useSystem(mode, { starters: [...serviceStarters, starter], hookTimeoutMs: 120_000 });
  /** The CLI pointed at this system through the environment, as a script would. */
  const formcast = (...args: string[]) =>
    runFormcast(args, { FORMCAST_URL: system.api.baseUrl, FORMCAST_ADMIN_TOKEN: system.adminToken });
  const formcastJson = async <T>(...args: string[]): Promise<T> => {
    const run = await formcast('--json', ...args);
    expectExit(run, 0);
    return JSON.parse(run.stdout) as T;
  };
  const createOrganization = (name: string) =>
    formcastJson<{ organization: { id: number; name: string; enrollment_code: string }; api_token: string }>('organizations', 'create', name);

  it('creates organizations and lists them', async () => {
    const name = uniqueName('CLI Org');
    const created = await formcast('organizations', 'create', name);
    expectExit(created, 0);
    expect(created.stdout).toContain(`(${name}) created`);
    const second = await createOrganization(uniqueName('CLI Org'));

    const listed = await formcastJson<{ organizations: OrganizationView[] }>('organizations', 'list');
    const names = listed.organizations.map((organization) => organization.name);
    expect(names).toEqual(expect.arrayContaining([name, second.organization.name]));
    expect(listed.organizations.find((organization) => organization.id === second.organization.id)).toEqual({
      id: second.organization.id,
      name: second.organization.name,
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
    const ids = listed.organizations.map((organization) => organization.id);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    const table = await formcast('organizations', 'list');
    expectExit(table, 0);
    expect(table.stdout).toMatch(new RegExp(`^${second.organization.id}\\s+${second.organization.name}\\s+\\d{4}-`, 'm'));
  });

  it('issues, lists and revokes API tokens; a revoked token is refused with 401', async () => {
    const { organization, api_token: firstToken } = await createOrganization(uniqueName('Tokens'));
    const issued = await formcastJson<{ id: number; label: string; api_token: string }>('tokens', 'issue', String(organization.id), '--label', 'ci');
    expect(issued).toEqual({ id: expect.any(Number), label: 'ci', api_token: expect.any(String) });
    const groups = `/organizations/${organization.id}/groups.json`;
    expect((await system.api.get(groups, { token: issued.api_token })).status).toBe(200);

    const listed = await formcastJson<{ tokens: ApiTokenView[] }>('tokens', 'list', String(organization.id));
    expect(listed.tokens.map((token) => [token.label, token.revoked_at])).toEqual([
      ['first token', null],
      ['ci', null],
    ]);

    const revoked = await formcast('tokens', 'revoke', String(organization.id), String(issued.id));
    expectExit(revoked, 0);
    expect(revoked.stdout).toContain(`Token ${issued.id} of organization ${organization.id} revoked`);
    await waitFor(async () => (await system.api.get(groups, { token: issued.api_token })).status === 401, {
      description: 'the revoked token refused',
    });
    expect((await system.api.get(groups, { token: firstToken })).status).toBe(200);
    const after = await formcastJson<{ tokens: ApiTokenView[] }>('tokens', 'list', String(organization.id));
    expect(after.tokens.find((token) => token.id === issued.id)?.revoked_at).toEqual(expect.any(String));
    expect(after.tokens.find((token) => token.label === 'first token')?.revoked_at).toBeNull();
  });

  it('rotates the enrollment code: the new one enrolls, the old one no longer does', async () => {
    const { organization } = await createOrganization(uniqueName('Enrolling'));
    const rotated = await formcastJson<{ organization_id: number; enrollment_code: string }>(
      'enrollment-code',
      'rotate',
      String(organization.id),
    );
    expect(rotated.organization_id).toBe(organization.id);
    expect(rotated.enrollment_code).not.toBe(organization.enrollment_code);

    const enroll = (code: string) =>
      system.api.post('/devices/enroll', { json: { enrollment_code: code, identifier: uniqueName('device'), push_token: null } });
    const withOldCode = await enroll(organization.enrollment_code);
    expect(withOldCode.status).toBeGreaterThanOrEqual(400);
    expect(withOldCode.status).toBeLessThan(500);
    expect((await enroll(rotated.enrollment_code)).status).toBe(201);
  });

  it('exits 2 for an unknown organization, token or dead letter, and for a wrong admin token', async () => {
    const { organization } = await createOrganization(uniqueName('Known'));
    const unknownOrg = '999999';
    // Independent runs, side by side: each is a process start.
    const [wrongToken, ...runs] = await Promise.all([
      runFormcast(['organizations', 'list', '--url', system.api.baseUrl, '--admin-token', 'not-the-admin-token']),
      ...[
        ['tokens', 'list', unknownOrg],
        ['tokens', 'issue', unknownOrg],
        ['tokens', 'revoke', String(organization.id), '999999'],
        ['enrollment-code', 'rotate', unknownOrg],
        ['dead-letters', 'list', 'no-such-service'],
        ['dead-letters', 'show', probeService, 'no-such-event'],
        ['dead-letters', 'replay', probeService, 'no-such-event'],
        ['dead-letters', 'drop', probeService, 'no-such-event'],
      ].map((args) => formcast(...args)),
    ]);
    for (const run of runs) {
      expectExit(run, 2);
      expect(run.stderr).toMatch(/Refused \(404\)/);
    }
    expectExit(wrongToken, 2);
    expect(wrongToken.stderr).toContain('Refused (401)');
  });

  it('keeps the admin API behind it to the admin token, and answers 404 for malformed queues and ids', async () => {
    expect((await system.api.get('/admin/organizations')).status).toBe(401);
    expect((await system.api.get('/admin/dead_letters', { bearer: 'not-the-admin-token' })).status).toBe(401);
    const admin = { bearer: system.adminToken };
    for (const path of ['/admin/dead_letters/No%20Such', '/admin/dead_letters/..', `/admin/dead_letters/${'q'.repeat(64)}`]) {
      expect((await system.api.get(path, admin)).status).toBe(404);
    }
    const longId = 'x'.repeat(300);
    expect((await system.api.get(`/admin/dead_letters/${probeService}/${longId}`, admin)).status).toBe(404);
    expect((await system.api.post(`/admin/dead_letters/${probeService}/${longId}/replay`, admin)).status).toBe(404);
    // A NUL in the path is refused before any route, as everywhere in the gateway.
    expect((await system.api.delete(`/admin/dead_letters/${probeService}/%00`, admin)).status).toBe(400);
    expect((await system.api.get(`/admin/dead_letters/${probeService}`, admin)).json()).toEqual({ queue: probeService, depth: 0, dead_letters: [] });
  });

  it('reads the admin token from DATA_DIR/admin-token when none is given', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'formcast-cli-data-'));
    try {
      writeFileSync(join(dataDir, 'admin-token'), `${system.adminToken}\n`, { mode: 0o600 });
      const run = await runFormcast(['--json', 'organizations', 'list'], { FORMCAST_URL: system.api.baseUrl, DATA_DIR: dataDir });
      expectExit(run, 0);
      expect(JSON.parse(run.stdout)).toEqual({ organizations: expect.any(Array) });
      const byFlag = await runFormcast(['organizations', 'list', '--data-dir', dataDir, '--url', system.api.baseUrl]);
      expectExit(byFlag, 0);
    } finally {
      rmSync(dataDir, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
    }
  });

  it('lists, shows, replays and drops dead letters; a replayed one is handled by its consumer', async () => {
    const replayed = createEnvelope(probeEvent, { n: 1, note: 'replay me' }, { orgId: 7 });
    const dropped = createEnvelope(probeEvent, { n: 2 });
    await probe.bus!.publish(replayed);
    await probe.bus!.publish(dropped);
    const inQueue = () => formcastJson<{ queue: string; depth: number; dead_letters: DeadLetterView[] }>('dead-letters', 'list', probeService);
    await waitFor(async () => (await inQueue()).depth === 2, { timeoutMs: 20_000, description: 'both events dead-lettered' });

    const listed = await inQueue();
    expect(listed.dead_letters.map((letter) => letter.id).sort()).toEqual([replayed.id, dropped.id].sort());
    const overview = await formcastJson<{ dead_letter_queues: Array<{ queue: string; depth: number }> }>('dead-letters', 'list');
    expect(overview.dead_letter_queues.map((queue) => queue.queue)).toEqual(expect.arrayContaining(['gateway', 'push', 'notifier', 'delivery']));
    const table = await formcast('dead-letters', 'list', probeService);
    expect(table.stdout).toMatch(new RegExp(`^${replayed.id}\\s+${probeEvent.replace('.', '\\.')}\\s+`, 'm'));

    const shown = await formcast('dead-letters', 'show', probeService, replayed.id);
    expectExit(shown, 0);
    expect(shown.stdout).toContain(`type:         ${probeEvent}`);
    expect(shown.stdout).toContain('"note": "replay me"');
    expect(await formcastJson('dead-letters', 'show', probeService, replayed.id)).toEqual({
      dead_letter: {
        id: replayed.id,
        type: probeEvent,
        occurred_at: replayed.occurredAt,
        organization_id: 7,
        request_id: replayed.requestId,
        payload: { n: 1, note: 'replay me' },
        attachment_bytes: null,
      },
    });

    probe.failing = false;
    const replay = await formcast('dead-letters', 'replay', probeService, replayed.id);
    expectExit(replay, 0);
    expect(replay.stdout).toContain(`Replayed ${replayed.id}`);
    await waitFor(() => probe.handled.includes(replayed.id), { timeoutMs: 10_000, description: 'the replayed event handled' });

    const drop = await formcast('dead-letters', 'drop', probeService, dropped.id);
    expectExit(drop, 0);
    expect(drop.stdout).toContain(`Dropped ${dropped.id}`);
    expect((await inQueue()).dead_letters).toEqual([]);
    expectExit(await formcast('dead-letters', 'show', probeService, dropped.id), 2);
    expectExit(await formcast('dead-letters', 'replay', probeService, replayed.id), 2);
    expect(probe.handled).toEqual([replayed.id]);
  });
});
