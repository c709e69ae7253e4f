import { randomUUID } from 'node:crypto';
import type { CommandHandler } from '@formcast/bus';
import { createEnvelope, directoryCommands, type CreateGroupsResult, type FormCreatedView } from '@formcast/contracts';
import { idempotent, runningWindowMs, SqliteIdempotencyStore, type IdempotencyStore } from '@formcast/idempotency';
import { createForm } from '../../src/handlers/create-form';
import { createGroups } from '../../src/handlers/create-groups';
import type { DirectoryDeps } from '../../src/handlers/deps';
import { foundOrganization } from '../../src/domain/organization-rules';
import { SqliteDirectoryStore } from '../../src/store';

/**
 * A keyed create whose process died after the create's commit and before its key's
 * completion (the keys are a file of their own): the key stays claimed, and the client's retry,
 * once the claim is older than `runningWindowMs`, runs the command again under the first
 * attempt's command id. Real stores on both sides; the death is the key's completion failing,
 * which leaves the files exactly as a SIGKILL at that point would.
 */
describe('directory creates under an Idempotency-Key, retried after the process died', () => {
  let store: SqliteDirectoryStore;
  let keys: SqliteIdempotencyStore;
  let orgId: number;
  let now: Date;
  const clock = () => now;

  beforeEach(async () => {
    store = new SqliteDirectoryStore(':memory:');
    keys = new SqliteIdempotencyStore(':memory:');
    now = new Date();
    const { organization } = await store.organizations.create(
      foundOrganization({ name: 'Acme', enrollmentCodeHash: randomUUID(), tokenHash: randomUUID() }, now.toISOString()),
    );
    orgId = organization.id;
  });
  afterEach(async () => {
    await store.close();
    await keys.close();
  });

  const deps = (): DirectoryDeps => ({ store, formNamespaceBase: 'http://forms.example.com' });

  /** The keys, except that the first completion never happens: the process dies first. */
  const dyingBeforeFirstCompletion = (): IdempotencyStore => {
    let died = false;
    return new Proxy(keys, {
      get(target, property, receiver) {
        if (property === 'complete' && !died) {
          return async () => {
            died = true;
            throw new Error('process killed before the key was completed');
          };
        }
        const value = Reflect.get(target, property, receiver);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
  };

  const request = (type: string, payload: unknown) =>
    createEnvelope(type, payload, { orgId, idempotency: { key: 'key-1', fingerprint: `fp of ${type}` } });

  /** The first attempt (dies after its create), then the client's retry of the same request a minute later. */
  async function crashThenRetry(make: (deps: DirectoryDeps) => CommandHandler, type: string, payload: unknown) {
    await expect(idempotent(dyingBeforeFirstCompletion(), make(deps()), { clock })(request(type, payload))).rejects.toThrow(
      'process killed',
    );
    now = new Date(now.getTime() + runningWindowMs + 1000);
    const handler = idempotent(keys, make(deps()), { clock });
    const retried = await handler(request(type, payload));
    // And the key now answers it again without running.
    expect(await handler(request(type, payload))).toEqual(retried);
    return retried;
  }

  it('answers the form the first attempt created, creating no second one', async () => {
    const definition = { type: 'root', title: 'Inspection', children: [{ identifier: 'site', type: 'text' }] };
    const retried = (await crashThenRetry(createForm, directoryCommands.createForm, { definition })) as FormCreatedView;

    const forms = await store.forms.list(orgId);
    expect(forms).toHaveLength(1);
    expect(retried).toEqual({ id: forms[0]!.id, namespace: forms[0]!.namespace, name: 'Inspection' });
  });

  it('answers the groups the first attempt created as created (201), not as existing (304)', async () => {
    const retried = (await crashThenRetry(createGroups, directoryCommands.createGroups, { names: ['North', 'South'] })) as CreateGroupsResult;

    const groups = await store.groups.list(orgId);
    expect(groups.map((group) => group.name)).toEqual(['Default', 'North', 'South']);
    expect(retried.created.map((group) => group.name)).toEqual(['North', 'South']);
    expect(retried.existing).toEqual([]);
  });

  it('still reports as existing the names that existed before the first attempt', async () => {
    await store.groups.create(orgId, ['North'], randomUUID());
    const retried = (await crashThenRetry(createGroups, directoryCommands.createGroups, { names: ['North', 'South'] })) as CreateGroupsResult;

    expect(retried.created.map((group) => group.name)).toEqual(['South']);
    expect(retried.existing).toEqual(['North']);
  });

  it('creates once when the same command is delivered twice (no key)', async () => {
    const command = createEnvelope(directoryCommands.createGroups, { names: ['East'] }, { orgId });
    const handler = createGroups(deps());
    const first = (await handler(command)) as CreateGroupsResult;
    expect(await handler(command)).toEqual(first);
    expect(first.created.map((group) => group.name)).toEqual(['East']);
    expect((await store.groups.list(orgId)).map((group) => group.name)).toEqual(['Default', 'East']);
  });
});
