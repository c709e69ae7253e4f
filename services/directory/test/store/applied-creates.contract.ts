import { randomUUID } from 'node:crypto';
import { newForm } from '../../src/domain/form-rules';
import { type DirectoryContractFixtures, now } from './contract-fixtures';

/**
 * Creates applied once per command id (see DirectoryStore's FormStore.create and
 * GroupStore.create): a command delivered twice, or a keyed request run again after its
 * process died, answers what the first run created instead of creating again.
 */
export function describeAppliedCreatesContract(f: DirectoryContractFixtures): void {
  const { newOrgId, definition, deleteGroup, expectAppError } = f;

  const formFor = async (orgId: number) =>
    newForm(definition('Inspection'), {
      orgId,
      groupId: await f.store.groups.defaultGroupId(orgId),
      // A run again generates a namespace of its own, as the handler does.
      generatedNamespace: `http://forms.example.com/${randomUUID()}`,
      now: now(),
    });

  describe('creates applied once per command id', () => {
    it('answers the form a command created when it runs again, creating no second one', async () => {
      const orgId = await newOrgId();
      const commandId = randomUUID();
      const first = await f.store.forms.create(await formFor(orgId), commandId);
      const again = await f.store.forms.create(await formFor(orgId), commandId);

      expect(again).toEqual(first);
      expect(await f.store.forms.list(orgId)).toEqual([first]);

      const other = await f.store.forms.create(await formFor(orgId), randomUUID());
      expect(other.id).not.toBe(first.id);
      expect((await f.store.forms.list(orgId)).map((form) => form.id)).toEqual([first.id, other.id]);
    });

    it("answers 'not_found' for a command whose form was deleted since, creating none", async () => {
      const orgId = await newOrgId();
      const commandId = randomUUID();
      const first = await f.store.forms.create(await formFor(orgId), commandId);
      await f.store.forms.delete(orgId, first.id);

      await expectAppError(f.store.forms.create(await formFor(orgId), commandId), 'not_found', `Form ${first.id} does not exist`);
      expect(await f.store.forms.list(orgId)).toEqual([]);
    });

    it('answers the groups a command created when it runs again, whatever names it is given now', async () => {
      const orgId = await newOrgId();
      const commandId = randomUUID();
      const created = await f.store.groups.create(orgId, ['North', 'South'], commandId);

      // Run again, the handler finds both names taken and asks for none.
      expect(await f.store.groups.create(orgId, [], commandId)).toEqual(created);
      expect(await f.store.groups.create(orgId, ['North', 'South'], commandId)).toEqual(created);
      expect((await f.store.groups.list(orgId)).map((group) => group.name)).toEqual(['Default', 'North', 'South']);
    });

    it('answers only the groups still there', async () => {
      const orgId = await newOrgId();
      const commandId = randomUUID();
      const [north, south] = await f.store.groups.create(orgId, ['North', 'South'], commandId);
      await deleteGroup(orgId, north!.id);

      expect(await f.store.groups.create(orgId, ['North'], commandId)).toEqual([south]);
      expect(await f.store.groups.findByName(orgId, 'North')).toBeNull();
    });

    it('records nothing for a command that created no group', async () => {
      const orgId = await newOrgId();
      const commandId = randomUUID();
      expect(await f.store.groups.create(orgId, [], commandId)).toEqual([]);

      const [north] = await f.store.groups.create(orgId, ['North'], commandId);
      expect(north).toMatchObject({ orgId, name: 'North' });
    });
  });
}
