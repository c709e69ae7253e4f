import { type DirectoryContractFixtures, now } from './contract-fixtures';

/**
 * Scoping by organization, across the parts of the directory store contract (see
 * describeDirectoryStoreContract): an id of another organization behaves as an unknown id.
 */
export function describeOrganizationScopingContract(f: DirectoryContractFixtures): void {
  const {
    newOrganization,
    definition,
    newForm,
    newDevice,
    newGroup,
    updateGroup,
    deleteGroup,
    reviseForm,
    revokeToken,
    approveDevice,
    defaultGroup,
    group,
    form,
    device,
    expectAppError,
  } = f;

  describe("another organization's ids act as unknown ids", () => {
    async function twoOrganizations() {
      const mine = await newOrganization('Mine');
      const theirs = await newOrganization('Theirs');
      const orgId = mine.organization.id;
      const otherOrgId = theirs.organization.id;
      const theirGroup = await newGroup(otherOrgId, 'Theirs only');
      const theirForm = await newForm(otherOrgId, { groupId: theirGroup.id });
      const theirDevice = await newDevice(otherOrgId);
      await updateGroup(otherOrgId, theirGroup.id, { deviceIds: [theirDevice.id] });
      const their = {
        token: theirs.token,
        group: await group(otherOrgId, theirGroup.id),
        form: await form(otherOrgId, theirForm.id),
        device: await device(otherOrgId, theirDevice.id),
        defaultGroup: await defaultGroup(otherOrgId),
      };
      return { orgId, otherOrgId, theirs: their };
    }

    it('reads answer null or leave them out', async () => {
      const { orgId, theirs } = await twoOrganizations();

      expect(await f.store.groups.get(orgId, theirs.group.id)).toBeNull();
      expect(await f.store.groups.findByName(orgId, theirs.group.name)).toBeNull();
      expect(await f.store.devices.get(orgId, theirs.device.id)).toBeNull();
      expect(await f.store.devices.findByIdentifier(orgId, theirs.device.identifier)).toBeNull();
      expect(await f.store.forms.get(orgId, theirs.form.id)).toBeNull();
      expect(await f.store.forms.findByNamespace(orgId, theirs.form.namespace)).toBeNull();
      expect((await f.store.groups.list(orgId)).map((g) => g.name)).toEqual(['Default']);
      expect((await f.store.groups.list(orgId))[0]).toMatchObject({ formIds: [], deviceIds: [] });
      expect(await f.store.devices.list(orgId)).toEqual([]);
      expect(await f.store.forms.list(orgId)).toEqual([]);
      expect((await f.store.organizations.listTokens(orgId)).map((t) => t.id)).not.toContain(theirs.token.id);
    });

    it('changes to them answer not_found and change nothing', async () => {
      const { orgId, otherOrgId, theirs } = await twoOrganizations();
      const myForm = await newForm(orgId);
      const notFound = (action: Promise<unknown>) => expectAppError(action, 'not_found');

      await notFound(revokeToken(orgId, theirs.token.id));
      await notFound(updateGroup(orgId, theirs.group.id, { name: 'Stolen' }));
      await notFound(deleteGroup(orgId, theirs.group.id));
      await notFound(deleteGroup(orgId, theirs.defaultGroup.id));
      await notFound(f.store.devices.update(orgId, theirs.device.id, { owner: 'Thief' }));
      await notFound(approveDevice(orgId, theirs.device.id));
      await notFound(f.store.devices.delete(orgId, theirs.device.id));
      await notFound(reviseForm(orgId, theirs.form.id, definition('Stolen')));
      await notFound(f.store.forms.move(orgId, theirs.form.id, (await defaultGroup(orgId)).id, now()));
      await notFound(f.store.forms.move(orgId, myForm.id, theirs.group.id, now()));
      await notFound(f.store.forms.delete(orgId, theirs.form.id));
      await notFound(newForm(orgId, { groupId: theirs.group.id }));

      expect((await f.store.organizations.listTokens(otherOrgId))[0]).toEqual(theirs.token);
      expect(await f.store.groups.get(otherOrgId, theirs.group.id)).toEqual(theirs.group);
      expect(await f.store.devices.get(otherOrgId, theirs.device.id)).toEqual(theirs.device);
      expect(await f.store.forms.get(otherOrgId, theirs.form.id)).toEqual(theirs.form);
      expect(await f.store.forms.get(orgId, myForm.id)).toEqual(myForm);
    });

    it('using them as members answers invalid and changes nothing', async () => {
      const { orgId, otherOrgId, theirs } = await twoOrganizations();
      const mine = await newGroup(orgId, 'Mine');
      const myDevice = await newDevice(orgId);

      await expectAppError(
        updateGroup(orgId, mine.id, { formIds: [theirs.form.id] }),
        'invalid',
        `Form ${theirs.form.id} does not exist`,
      );
      await expectAppError(
        updateGroup(orgId, mine.id, { deviceIds: [theirs.device.id] }),
        'invalid',
        `Device ${theirs.device.id} does not exist`,
      );
      await expectAppError(
        f.store.devices.update(orgId, myDevice.id, { groupIds: [theirs.group.id] }),
        'invalid',
        `Group ${theirs.group.id} does not exist`,
      );
      await expectAppError(
        newDevice(orgId, { groupIds: [theirs.group.id] }),
        'invalid',
        `Group ${theirs.group.id} does not exist`,
      );
      expect(await f.store.devices.list(orgId)).toEqual([myDevice]);

      expect(await group(orgId, mine.id)).toEqual(mine);
      expect(await device(orgId, myDevice.id)).toEqual(myDevice);
      expect(await f.store.groups.get(otherOrgId, theirs.group.id)).toEqual(theirs.group);
      expect(await f.store.forms.get(otherOrgId, theirs.form.id)).toEqual(theirs.form);
      expect(await f.store.devices.get(otherOrgId, theirs.device.id)).toEqual(theirs.device);
    });
  });
}
