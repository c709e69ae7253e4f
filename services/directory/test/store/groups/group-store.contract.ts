import { randomUUID } from 'node:crypto';
import type { DirectoryContractFixtures } from '../contract-fixtures';

/**
 * The groups part of the directory store contract (see describeDirectoryStoreContract).
 * Updates and deletions go through the domain's decisions, as the handlers make them.
 */
export function describeGroupStoreContract(f: DirectoryContractFixtures): void {
  const { unknownId, newOrgId, newForm, newDevice, newGroup, updateGroup, deleteGroup, defaultGroup, group, form, device, expectAppError } = f;

  describe('groups', () => {
    it('creates groups in the order given, empty, after Default', async () => {
      const orgId = await newOrgId();
      const created = await f.store.groups.create(orgId, ['North', 'South'], randomUUID());

      expect(created).toEqual([
        { id: expect.any(Number), orgId, name: 'North', isDefault: false, formIds: [], deviceIds: [], tags: [] },
        { id: expect.any(Number), orgId, name: 'South', isDefault: false, formIds: [], deviceIds: [], tags: [] },
      ]);
      const [north, south] = created;
      expect(south!.id).toBeGreaterThan(north!.id);
      const listed = await f.store.groups.list(orgId);
      expect(listed.map((g) => g.name)).toEqual(['Default', 'North', 'South']);
      expect(listed.slice(1)).toEqual(created);
      expect(await f.store.groups.get(orgId, north!.id)).toEqual(north);
      expect(await f.store.groups.findByName(orgId, 'South')).toEqual(south);
    });

    it('answers null for an unknown group id or name', async () => {
      const orgId = await newOrgId();
      expect(await f.store.groups.get(orgId, unknownId)).toBeNull();
      expect(await f.store.groups.findByName(orgId, 'Nowhere')).toBeNull();
    });

    it("answers the organization's group names by id, and its Default group's id", async () => {
      const orgId = await newOrgId();
      const north = await newGroup(orgId, 'North');
      await newForm(orgId, { groupId: north.id });
      const home = await defaultGroup(orgId);
      expect(await f.store.groups.names(orgId)).toEqual(new Map([[home.id, 'Default'], [north.id, 'North']]));
      expect(await f.store.groups.defaultGroupId(orgId)).toBe(home.id);
      expect(await f.store.groups.names(unknownId)).toEqual(new Map());
      await expectAppError(f.store.groups.defaultGroupId(unknownId), 'not_found', `Organization ${unknownId} does not exist`);
    });

    it('refuses a group name the organization already has, creating none of the batch', async () => {
      const orgId = await newOrgId();
      await newGroup(orgId, 'North');

      await expectAppError(f.store.groups.create(orgId, ['East', 'North'], randomUUID()), 'conflict', 'A group named "North" already exists');
      await expectAppError(f.store.groups.create(orgId, ['Default'], randomUUID()), 'conflict', 'A group named "Default" already exists');
      expect((await f.store.groups.list(orgId)).map((g) => g.name)).toEqual(['Default', 'North']);
    });

    it('refuses the same name twice in one batch', async () => {
      const orgId = await newOrgId();
      await expectAppError(f.store.groups.create(orgId, ['West', 'West'], randomUUID()), 'conflict', 'A group named "West" already exists');
      expect(await f.store.groups.findByName(orgId, 'West')).toBeNull();
    });

    it('allows the same group name in two organizations', async () => {
      const first = await newOrgId();
      const second = await newOrgId();
      const a = await newGroup(first, 'North');
      const b = await newGroup(second, 'North');
      expect(b.id).not.toBe(a.id);
      expect(await f.store.groups.findByName(second, 'North')).toEqual(b);
    });

    it('refuses to create groups in an unknown organization', async () => {
      await expectAppError(f.store.groups.create(unknownId, ['North'], randomUUID()), 'not_found');
    });

    it('lists each group with its forms and devices, ascending', async () => {
      const orgId = await newOrgId();
      const north = await newGroup(orgId, 'North');
      const formA = await newForm(orgId, { groupId: north.id });
      const formB = await newForm(orgId);
      const formC = await newForm(orgId, { groupId: north.id });
      const deviceA = await newDevice(orgId);
      const deviceB = await newDevice(orgId);
      await updateGroup(orgId, north.id, { deviceIds: [deviceB.id, deviceA.id] });

      const [defaultListed, northListed] = await f.store.groups.list(orgId);
      expect(defaultListed).toMatchObject({ name: 'Default', formIds: [formB.id], deviceIds: [] });
      expect(northListed).toMatchObject({
        name: 'North',
        formIds: [formA.id, formC.id],
        deviceIds: [deviceA.id, deviceB.id],
      });
      expect(await f.store.groups.get(orgId, north.id)).toEqual(northListed);
    });

    describe('updateGroup', () => {
      it('renames a group and leaves its members alone', async () => {
        const orgId = await newOrgId();
        const north = await newGroup(orgId, 'North');
        const member = await newForm(orgId, { groupId: north.id });
        const phone = await newDevice(orgId);
        await updateGroup(orgId, north.id, { deviceIds: [phone.id] });

        const renamed = await updateGroup(orgId, north.id, { name: 'Northern' });

        expect(renamed).toEqual({ ...north, name: 'Northern', formIds: [member.id], deviceIds: [phone.id] });
        expect(await f.store.groups.findByName(orgId, 'Northern')).toEqual(renamed);
        expect(await f.store.groups.findByName(orgId, 'North')).toBeNull();
      });

      it('accepts the name the group already has', async () => {
        const orgId = await newOrgId();
        const north = await newGroup(orgId, 'North');
        expect(await updateGroup(orgId, north.id, { name: 'North' })).toEqual(north);
      });

      it('refuses a name another group of the organization has', async () => {
        const orgId = await newOrgId();
        const north = await newGroup(orgId, 'North');
        await newGroup(orgId, 'South');
        await expectAppError(updateGroup(orgId, north.id, { name: 'South' }), 'conflict', 'A group named "South" already exists');
        await expectAppError(updateGroup(orgId, north.id, { name: 'Default' }), 'conflict');
        expect(await group(orgId, north.id)).toEqual(north);
      });

      it('refuses to rename the Default group', async () => {
        const orgId = await newOrgId();
        const home = await defaultGroup(orgId);
        await expectAppError(updateGroup(orgId, home.id, { name: 'Home' }), 'invalid');
        expect(await group(orgId, home.id)).toEqual(home);
      });

      it('moves listed forms in from their previous group', async () => {
        const orgId = await newOrgId();
        const north = await newGroup(orgId, 'North');
        const south = await newGroup(orgId, 'South');
        const fromSouth = await newForm(orgId, { groupId: south.id });
        const fromDefault = await newForm(orgId);
        const staysInSouth = await newForm(orgId, { groupId: south.id });

        const updated = await updateGroup(orgId, north.id, { formIds: [fromSouth.id, fromDefault.id] });

        expect(updated.formIds).toEqual([fromSouth.id, fromDefault.id]);
        expect((await group(orgId, south.id)).formIds).toEqual([staysInSouth.id]);
        expect((await defaultGroup(orgId)).formIds).toEqual([]);
        expect((await form(orgId, fromSouth.id)).groupId).toBe(north.id);
        expect((await form(orgId, fromDefault.id)).groupId).toBe(north.id);
      });

      it('sends forms no longer listed back to Default', async () => {
        const orgId = await newOrgId();
        const north = await newGroup(orgId, 'North');
        const kept = await newForm(orgId, { groupId: north.id });
        const dropped = await newForm(orgId, { groupId: north.id });

        const updated = await updateGroup(orgId, north.id, { formIds: [kept.id] });

        expect(updated.formIds).toEqual([kept.id]);
        const home = await defaultGroup(orgId);
        expect(home.formIds).toEqual([dropped.id]);
        expect((await form(orgId, dropped.id)).groupId).toBe(home.id);

        const emptied = await updateGroup(orgId, north.id, { formIds: [] });
        expect(emptied.formIds).toEqual([]);
        expect((await defaultGroup(orgId)).formIds).toEqual([kept.id, dropped.id]);
      });

      it('replaces the group devices, leaving their other memberships', async () => {
        const orgId = await newOrgId();
        const north = await newGroup(orgId, 'North');
        const south = await newGroup(orgId, 'South');
        const first = await newDevice(orgId);
        const second = await newDevice(orgId);
        await updateGroup(orgId, north.id, { deviceIds: [first.id] });
        await updateGroup(orgId, south.id, { deviceIds: [first.id, second.id] });

        expect((await device(orgId, first.id)).groupIds).toEqual([north.id, south.id]);

        const updated = await updateGroup(orgId, north.id, { deviceIds: [second.id] });

        expect(updated.deviceIds).toEqual([second.id]);
        expect((await device(orgId, first.id)).groupIds).toEqual([south.id]);
        expect((await device(orgId, second.id)).groupIds).toEqual([north.id, south.id]);
        expect((await group(orgId, south.id)).deviceIds).toEqual([first.id, second.id]);
      });

      it('leaves fields that are not given unchanged', async () => {
        const orgId = await newOrgId();
        const north = await newGroup(orgId, 'North');
        const member = await newForm(orgId, { groupId: north.id });
        const phone = await newDevice(orgId);

        await updateGroup(orgId, north.id, { deviceIds: [phone.id] });
        expect(await group(orgId, north.id)).toEqual({ ...north, formIds: [member.id], deviceIds: [phone.id] });

        await updateGroup(orgId, north.id, { formIds: [] });
        expect(await group(orgId, north.id)).toEqual({ ...north, formIds: [], deviceIds: [phone.id] });

        expect(await updateGroup(orgId, north.id, {})).toEqual({ ...north, formIds: [], deviceIds: [phone.id] });
      });

      it('sets and replaces its tags, keeping them when none are given (group.md)', async () => {
        const orgId = await newOrgId();
        const north = await newGroup(orgId, 'North');
        expect(north.tags).toEqual([]);

        expect((await updateGroup(orgId, north.id, { tags: ['food', 'health'] })).tags).toEqual(['food', 'health']);
        expect((await group(orgId, north.id)).tags).toEqual(['food', 'health']);
        expect((await updateGroup(orgId, north.id, { name: 'Northern' })).tags).toEqual(['food', 'health']);
        expect((await f.store.groups.list(orgId)).find((listed) => listed.id === north.id)?.tags).toEqual(['food', 'health']);
        expect((await updateGroup(orgId, north.id, { tags: [] })).tags).toEqual([]);
        expect((await group(orgId, north.id)).tags).toEqual([]);
      });

      it('changes nothing when one form id is unknown', async () => {
        const orgId = await newOrgId();
        const north = await newGroup(orgId, 'North');
        const member = await newForm(orgId, { groupId: north.id });
        const outside = await newForm(orgId);
        const phone = await newDevice(orgId);
        await updateGroup(orgId, north.id, { deviceIds: [phone.id] });
        const before = await f.store.groups.list(orgId);

        await expectAppError(
          updateGroup(orgId, north.id, { name: 'Renamed', formIds: [outside.id, unknownId], deviceIds: [] }),
          'invalid',
          `Form ${unknownId} does not exist`,
        );

        expect(await f.store.groups.list(orgId)).toEqual(before);
        expect((await form(orgId, member.id)).groupId).toBe(north.id);
        expect((await device(orgId, phone.id)).groupIds).toEqual([north.id]);
      });

      it('changes nothing when one device id is unknown', async () => {
        const orgId = await newOrgId();
        const north = await newGroup(orgId, 'North');
        const member = await newForm(orgId, { groupId: north.id });
        const phone = await newDevice(orgId);
        const before = await f.store.groups.list(orgId);

        await expectAppError(
          updateGroup(orgId, north.id, { name: 'Renamed', formIds: [], deviceIds: [phone.id, unknownId], tags: ['food'] }),
          'invalid',
          `Device ${unknownId} does not exist`,
        );

        expect(await f.store.groups.list(orgId)).toEqual(before);
        expect((await form(orgId, member.id)).groupId).toBe(north.id);
        expect((await device(orgId, phone.id)).groupIds).toEqual([]);
      });

      it('refuses an unknown group', async () => {
        const orgId = await newOrgId();
        await expectAppError(updateGroup(orgId, unknownId, { name: 'X' }), 'not_found', `Group ${unknownId} does not exist`);
      });
    });

    describe('deleteGroup', () => {
      it('sends its forms to Default and ends its memberships', async () => {
        const orgId = await newOrgId();
        const north = await newGroup(orgId, 'North');
        const south = await newGroup(orgId, 'South');
        const member = await newForm(orgId, { groupId: north.id });
        const inDefault = await newForm(orgId);
        const phone = await newDevice(orgId);
        await updateGroup(orgId, north.id, { deviceIds: [phone.id] });
        await updateGroup(orgId, south.id, { deviceIds: [phone.id] });

        await deleteGroup(orgId, north.id);

        expect(await f.store.groups.get(orgId, north.id)).toBeNull();
        const home = await defaultGroup(orgId);
        expect(home.formIds).toEqual([member.id, inDefault.id]);
        expect((await form(orgId, member.id)).groupId).toBe(home.id);
        expect((await device(orgId, phone.id)).groupIds).toEqual([south.id]);
        expect((await f.store.groups.list(orgId)).map((g) => g.name)).toEqual(['Default', 'South']);
      });

      it('frees the name for a new group', async () => {
        const orgId = await newOrgId();
        const north = await newGroup(orgId, 'North');
        await deleteGroup(orgId, north.id);
        const again = await newGroup(orgId, 'North');
        expect(again.id).not.toBe(north.id);
      });

      it('refuses to delete the Default group', async () => {
        const orgId = await newOrgId();
        const home = await defaultGroup(orgId);
        await expectAppError(deleteGroup(orgId, home.id), 'invalid', 'The Default group cannot be deleted');
        expect(await f.store.groups.get(orgId, home.id)).toEqual(home);
      });

      it('refuses an unknown group', async () => {
        const orgId = await newOrgId();
        await expectAppError(deleteGroup(orgId, unknownId), 'not_found', `Group ${unknownId} does not exist`);
      });
    });
  });
}
