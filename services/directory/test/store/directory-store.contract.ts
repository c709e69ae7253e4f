import { isAppError } from '@formcast/platform';
import { uniqueName } from '@formcast/testing';
import type { ErrorCode } from '@formcast/contracts';
import type { Device, Form, FormDefinition, Group } from '../../src/domain/records';
import type { DirectoryStore } from '../../src/store';

/**
 * The behaviour every DirectoryStore adapter must have: one suite, run against each adapter
 * (see the port's doc comment in src/store/directory-store.ts for the rules checked here).
 * `makeStore` gives a fresh, empty store for each test; the suite closes it afterwards.
 */
export function describeDirectoryStoreContract(
  name: string,
  makeStore: () => Promise<DirectoryStore>,
): void {
  describe(name, () => {
    let store: DirectoryStore;

    beforeEach(async () => {
      store = await makeStore();
    });

    afterEach(async () => {
      await store.close();
    });

    // Fixtures ---------------------------------------------------------------------------

    const unknownId = 987654;

    function newOrganization(orgName = 'Acme Surveys') {
      return store.createOrganization({
        name: orgName,
        enrollmentCode: uniqueName('enroll'),
        tokenHash: uniqueName('token-hash'),
        tokenLabel: 'first token',
      });
    }

    async function newOrgId(): Promise<number> {
      return (await newOrganization()).organization.id;
    }

    function definition(title: string): FormDefinition {
      return {
        type: 'root',
        title,
        children: [
          { identifier: 'site', title: 'Site', type: 'text' },
          {
            identifier: 'readings',
            type: 'group',
            repeat: true,
            children: [{ identifier: 'value', type: 'decimal', constraints: { min: 0 } }],
          },
        ],
      };
    }

    function newForm(orgId: number, extra: { groupId?: number; namespace?: string; title?: string } = {}) {
      const title = extra.title ?? 'Inspection';
      return store.createForm({
        orgId,
        name: title,
        namespace: extra.namespace ?? `http://forms.example.com/${uniqueName('form')}`,
        description: 'Weekly site inspection',
        definition: definition(title),
        ...(extra.groupId === undefined ? {} : { groupId: extra.groupId }),
      });
    }

    function newDevice(orgId: number, extra: { identifier?: string; secretHash?: string } = {}) {
      return store.enrollDevice({
        orgId,
        identifier: extra.identifier ?? uniqueName('Android'),
        owner: 'Sam Field',
        description: 'Tablet in van 3',
        pushToken: 'fcm-token-1',
        secretHash: extra.secretHash ?? uniqueName('secret-hash'),
      });
    }

    async function newGroup(orgId: number, groupName = uniqueName('Group')): Promise<Group> {
      const [group] = await store.createGroups(orgId, [groupName]);
      if (!group) throw new Error('createGroups returned nothing');
      return group;
    }

    async function defaultGroup(orgId: number): Promise<Group> {
      const group = await store.findGroupByName(orgId, 'Default');
      if (!group) throw new Error('no Default group');
      return group;
    }

    async function group(orgId: number, groupId: number): Promise<Group> {
      const found = await store.getGroup(orgId, groupId);
      if (!found) throw new Error(`group ${groupId} is missing`);
      return found;
    }

    async function form(orgId: number, formId: number): Promise<Form> {
      const found = await store.getForm(orgId, formId);
      if (!found) throw new Error(`form ${formId} is missing`);
      return found;
    }

    async function device(orgId: number, deviceId: number): Promise<Device> {
      const found = await store.getDevice(orgId, deviceId);
      if (!found) throw new Error(`device ${deviceId} is missing`);
      return found;
    }

    async function expectAppError(
      action: Promise<unknown>,
      code: ErrorCode,
      message?: string | RegExp,
    ): Promise<void> {
      const error: unknown = await action.then(
        () => undefined,
        (thrown: unknown) => thrown,
      );
      if (!isAppError(error)) throw new Error(`expected an AppError '${code}', got ${String(error)}`);
      expect(error.code).toBe(code);
      if (message !== undefined) expect(error.message).toMatch(message);
    }

    const isoTimestamp = expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/);

    // Organizations and API tokens ---------------------------------------------------------

    describe('organizations and API tokens', () => {
      it('creates an organization with its Default group and first token', async () => {
        const { organization, token } = await store.createOrganization({
          name: 'Acme Surveys',
          enrollmentCode: 'ENROLL-1',
          tokenHash: 'hash-1',
          tokenLabel: 'integration',
        });

        expect(organization).toEqual({
          id: expect.any(Number),
          name: 'Acme Surveys',
          enrollmentCode: 'ENROLL-1',
          createdAt: isoTimestamp,
        });
        expect(token).toEqual({
          id: expect.any(Number),
          orgId: organization.id,
          label: 'integration',
          createdAt: isoTimestamp,
          revokedAt: null,
        });
        expect(await store.getOrganization(organization.id)).toEqual(organization);
        expect(await store.findOrganizationByEnrollmentCode('ENROLL-1')).toEqual(organization);
        expect(await store.listGroups(organization.id)).toEqual([
          { id: expect.any(Number), orgId: organization.id, name: 'Default', isDefault: true, formIds: [], deviceIds: [] },
        ]);
        expect(await store.listApiTokens(organization.id)).toEqual([token]);
        expect(await store.findOrgIdByTokenHash('hash-1')).toBe(organization.id);
      });

      it('gives each organization its own integer id', async () => {
        const first = await newOrgId();
        const second = await newOrgId();
        expect(Number.isInteger(first)).toBe(true);
        expect(Number.isInteger(second)).toBe(true);
        expect(second).not.toBe(first);
      });

      it('answers null for an unknown organization, enrollment code or token hash', async () => {
        await newOrganization();
        expect(await store.getOrganization(unknownId)).toBeNull();
        expect(await store.findOrganizationByEnrollmentCode('no-such-code')).toBeNull();
        expect(await store.findOrgIdByTokenHash('no-such-hash')).toBeNull();
      });

      it('refuses a second organization with the same enrollment code, creating nothing', async () => {
        const first = await store.createOrganization({
          name: 'First',
          enrollmentCode: 'SHARED',
          tokenHash: 'hash-first',
          tokenLabel: 'first',
        });
        await expectAppError(
          store.createOrganization({ name: 'Second', enrollmentCode: 'SHARED', tokenHash: 'hash-second', tokenLabel: 'x' }),
          'conflict',
        );
        expect(await store.findOrganizationByEnrollmentCode('SHARED')).toEqual(first.organization);
        expect(await store.findOrgIdByTokenHash('hash-second')).toBeNull();
      });

      it('adds API tokens that authenticate, listed ascending by id', async () => {
        const { organization, token: first } = await newOrganization();
        const second = await store.addApiToken(organization.id, 'hash-second', 'backup');

        expect(second).toEqual({
          id: expect.any(Number),
          orgId: organization.id,
          label: 'backup',
          createdAt: isoTimestamp,
          revokedAt: null,
        });
        expect(second.id).toBeGreaterThan(first.id);
        expect(await store.findOrgIdByTokenHash('hash-second')).toBe(organization.id);
        expect(await store.listApiTokens(organization.id)).toEqual([first, second]);
      });

      it('refuses a token for an unknown organization', async () => {
        await expectAppError(store.addApiToken(unknownId, 'hash-x', 'x'), 'not_found', `Organization ${unknownId} does not exist`);
        expect(await store.findOrgIdByTokenHash('hash-x')).toBeNull();
      });

      it('stops finding a revoked token by its hash, and keeps the others', async () => {
        const { organization, token } = await store.createOrganization({
          name: 'Acme',
          enrollmentCode: uniqueName('enroll'),
          tokenHash: 'hash-revoked',
          tokenLabel: 'old',
        });
        const kept = await store.addApiToken(organization.id, 'hash-kept', 'new');

        await store.revokeApiToken(organization.id, token.id);

        expect(await store.findOrgIdByTokenHash('hash-revoked')).toBeNull();
        expect(await store.findOrgIdByTokenHash('hash-kept')).toBe(organization.id);
        expect(await store.listApiTokens(organization.id)).toEqual([
          { ...token, revokedAt: isoTimestamp },
          kept,
        ]);
      });

      it('keeps the first revocation time when a token is revoked twice', async () => {
        const { organization, token } = await newOrganization();
        await store.revokeApiToken(organization.id, token.id);
        const [afterFirst] = await store.listApiTokens(organization.id);
        await store.revokeApiToken(organization.id, token.id);
        expect(await store.listApiTokens(organization.id)).toEqual([afterFirst]);
      });

      it('refuses to revoke an unknown token', async () => {
        const orgId = await newOrgId();
        await expectAppError(store.revokeApiToken(orgId, unknownId), 'not_found', `API token ${unknownId} does not exist`);
      });
    });

    // Groups -------------------------------------------------------------------------------

    describe('groups', () => {
      it('creates groups in the order given, empty, after Default', async () => {
        const orgId = await newOrgId();
        const created = await store.createGroups(orgId, ['North', 'South']);

        expect(created).toEqual([
          { id: expect.any(Number), orgId, name: 'North', isDefault: false, formIds: [], deviceIds: [] },
          { id: expect.any(Number), orgId, name: 'South', isDefault: false, formIds: [], deviceIds: [] },
        ]);
        const [north, south] = created;
        expect(south!.id).toBeGreaterThan(north!.id);
        const listed = await store.listGroups(orgId);
        expect(listed.map((g) => g.name)).toEqual(['Default', 'North', 'South']);
        expect(listed.slice(1)).toEqual(created);
        expect(await store.getGroup(orgId, north!.id)).toEqual(north);
        expect(await store.findGroupByName(orgId, 'South')).toEqual(south);
      });

      it('answers null for an unknown group id or name', async () => {
        const orgId = await newOrgId();
        expect(await store.getGroup(orgId, unknownId)).toBeNull();
        expect(await store.findGroupByName(orgId, 'Nowhere')).toBeNull();
      });

      it('refuses a group name the organization already has, creating none of the batch', async () => {
        const orgId = await newOrgId();
        await newGroup(orgId, 'North');

        await expectAppError(store.createGroups(orgId, ['East', 'North']), 'conflict', 'A group named "North" already exists');
        await expectAppError(store.createGroups(orgId, ['Default']), 'conflict', 'A group named "Default" already exists');
        expect((await store.listGroups(orgId)).map((g) => g.name)).toEqual(['Default', 'North']);
      });

      it('refuses the same name twice in one batch', async () => {
        const orgId = await newOrgId();
        await expectAppError(store.createGroups(orgId, ['West', 'West']), 'conflict', 'A group named "West" already exists');
        expect(await store.findGroupByName(orgId, 'West')).toBeNull();
      });

      it('allows the same group name in two organizations', async () => {
        const first = await newOrgId();
        const second = await newOrgId();
        const a = await newGroup(first, 'North');
        const b = await newGroup(second, 'North');
        expect(b.id).not.toBe(a.id);
        expect(await store.findGroupByName(second, 'North')).toEqual(b);
      });

      it('refuses to create groups in an unknown organization', async () => {
        await expectAppError(store.createGroups(unknownId, ['North']), 'not_found');
      });

      it('lists each group with its forms and devices, ascending', async () => {
        const orgId = await newOrgId();
        const north = await newGroup(orgId, 'North');
        const formA = await newForm(orgId, { groupId: north.id });
        const formB = await newForm(orgId);
        const formC = await newForm(orgId, { groupId: north.id });
        const deviceA = await newDevice(orgId);
        const deviceB = await newDevice(orgId);
        await store.updateGroup(orgId, north.id, { deviceIds: [deviceB.id, deviceA.id] });

        const [defaultListed, northListed] = await store.listGroups(orgId);
        expect(defaultListed).toMatchObject({ name: 'Default', formIds: [formB.id], deviceIds: [] });
        expect(northListed).toMatchObject({
          name: 'North',
          formIds: [formA.id, formC.id],
          deviceIds: [deviceA.id, deviceB.id],
        });
        expect(await store.getGroup(orgId, north.id)).toEqual(northListed);
      });

      describe('updateGroup', () => {
        it('renames a group and leaves its members alone', async () => {
          const orgId = await newOrgId();
          const north = await newGroup(orgId, 'North');
          const member = await newForm(orgId, { groupId: north.id });
          const phone = await newDevice(orgId);
          await store.updateGroup(orgId, north.id, { deviceIds: [phone.id] });

          const renamed = await store.updateGroup(orgId, north.id, { name: 'Northern' });

          expect(renamed).toEqual({ ...north, name: 'Northern', formIds: [member.id], deviceIds: [phone.id] });
          expect(await store.findGroupByName(orgId, 'Northern')).toEqual(renamed);
          expect(await store.findGroupByName(orgId, 'North')).toBeNull();
        });

        it('accepts the name the group already has', async () => {
          const orgId = await newOrgId();
          const north = await newGroup(orgId, 'North');
          expect(await store.updateGroup(orgId, north.id, { name: 'North' })).toEqual(north);
        });

        it('refuses a name another group of the organization has', async () => {
          const orgId = await newOrgId();
          const north = await newGroup(orgId, 'North');
          await newGroup(orgId, 'South');
          await expectAppError(store.updateGroup(orgId, north.id, { name: 'South' }), 'conflict', 'A group named "South" already exists');
          await expectAppError(store.updateGroup(orgId, north.id, { name: 'Default' }), 'conflict');
          expect(await group(orgId, north.id)).toEqual(north);
        });

        it('refuses to rename the Default group', async () => {
          const orgId = await newOrgId();
          const home = await defaultGroup(orgId);
          await expectAppError(store.updateGroup(orgId, home.id, { name: 'Home' }), 'invalid');
          expect(await group(orgId, home.id)).toEqual(home);
        });

        it('moves listed forms in from their previous group', async () => {
          const orgId = await newOrgId();
          const north = await newGroup(orgId, 'North');
          const south = await newGroup(orgId, 'South');
          const fromSouth = await newForm(orgId, { groupId: south.id });
          const fromDefault = await newForm(orgId);
          const staysInSouth = await newForm(orgId, { groupId: south.id });

          const updated = await store.updateGroup(orgId, north.id, { formIds: [fromSouth.id, fromDefault.id] });

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

          const updated = await store.updateGroup(orgId, north.id, { formIds: [kept.id] });

          expect(updated.formIds).toEqual([kept.id]);
          const home = await defaultGroup(orgId);
          expect(home.formIds).toEqual([dropped.id]);
          expect((await form(orgId, dropped.id)).groupId).toBe(home.id);

          const emptied = await store.updateGroup(orgId, north.id, { formIds: [] });
          expect(emptied.formIds).toEqual([]);
          expect((await defaultGroup(orgId)).formIds).toEqual([kept.id, dropped.id]);
        });

        it('replaces the group devices, leaving their other memberships', async () => {
          const orgId = await newOrgId();
          const north = await newGroup(orgId, 'North');
          const south = await newGroup(orgId, 'South');
          const first = await newDevice(orgId);
          const second = await newDevice(orgId);
          await store.updateGroup(orgId, north.id, { deviceIds: [first.id] });
          await store.updateGroup(orgId, south.id, { deviceIds: [first.id, second.id] });

          expect((await device(orgId, first.id)).groupIds).toEqual([north.id, south.id]);

          const updated = await store.updateGroup(orgId, north.id, { deviceIds: [second.id] });

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

          await store.updateGroup(orgId, north.id, { deviceIds: [phone.id] });
          expect(await group(orgId, north.id)).toEqual({ ...north, formIds: [member.id], deviceIds: [phone.id] });

          await store.updateGroup(orgId, north.id, { formIds: [] });
          expect(await group(orgId, north.id)).toEqual({ ...north, formIds: [], deviceIds: [phone.id] });

          expect(await store.updateGroup(orgId, north.id, {})).toEqual({ ...north, formIds: [], deviceIds: [phone.id] });
        });

        it('changes nothing when one form id is unknown', async () => {
          const orgId = await newOrgId();
          const north = await newGroup(orgId, 'North');
          const member = await newForm(orgId, { groupId: north.id });
          const outside = await newForm(orgId);
          const phone = await newDevice(orgId);
          await store.updateGroup(orgId, north.id, { deviceIds: [phone.id] });
          const before = await store.listGroups(orgId);

          await expectAppError(
            store.updateGroup(orgId, north.id, { name: 'Renamed', formIds: [outside.id, unknownId], deviceIds: [] }),
            'invalid',
            `Form ${unknownId} does not exist`,
          );

          expect(await store.listGroups(orgId)).toEqual(before);
          expect((await form(orgId, member.id)).groupId).toBe(north.id);
          expect((await device(orgId, phone.id)).groupIds).toEqual([north.id]);
        });

        it('changes nothing when one device id is unknown', async () => {
          const orgId = await newOrgId();
          const north = await newGroup(orgId, 'North');
          const member = await newForm(orgId, { groupId: north.id });
          const phone = await newDevice(orgId);
          const before = await store.listGroups(orgId);

          await expectAppError(
            store.updateGroup(orgId, north.id, { name: 'Renamed', formIds: [], deviceIds: [phone.id, unknownId] }),
            'invalid',
            `Device ${unknownId} does not exist`,
          );

          expect(await store.listGroups(orgId)).toEqual(before);
          expect((await form(orgId, member.id)).groupId).toBe(north.id);
          expect((await device(orgId, phone.id)).groupIds).toEqual([]);
        });

        it('refuses an unknown group', async () => {
          const orgId = await newOrgId();
          await expectAppError(store.updateGroup(orgId, unknownId, { name: 'X' }), 'not_found', `Group ${unknownId} does not exist`);
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
          await store.updateGroup(orgId, north.id, { deviceIds: [phone.id] });
          await store.updateGroup(orgId, south.id, { deviceIds: [phone.id] });

          await store.deleteGroup(orgId, north.id);

          expect(await store.getGroup(orgId, north.id)).toBeNull();
          const home = await defaultGroup(orgId);
          expect(home.formIds).toEqual([member.id, inDefault.id]);
          expect((await form(orgId, member.id)).groupId).toBe(home.id);
          expect((await device(orgId, phone.id)).groupIds).toEqual([south.id]);
          expect((await store.listGroups(orgId)).map((g) => g.name)).toEqual(['Default', 'South']);
        });

        it('frees the name for a new group', async () => {
          const orgId = await newOrgId();
          const north = await newGroup(orgId, 'North');
          await store.deleteGroup(orgId, north.id);
          const again = await newGroup(orgId, 'North');
          expect(again.id).not.toBe(north.id);
        });

        it('refuses to delete the Default group', async () => {
          const orgId = await newOrgId();
          const home = await defaultGroup(orgId);
          await expectAppError(store.deleteGroup(orgId, home.id), 'invalid', 'The Default group cannot be deleted');
          expect(await store.getGroup(orgId, home.id)).toEqual(home);
        });

        it('refuses an unknown group', async () => {
          const orgId = await newOrgId();
          await expectAppError(store.deleteGroup(orgId, unknownId), 'not_found', `Group ${unknownId} does not exist`);
        });
      });
    });

    // Devices ------------------------------------------------------------------------------

    describe('devices', () => {
      it('enrolls a device pending approval, in no group', async () => {
        const orgId = await newOrgId();
        const enrolled = await store.enrollDevice({
          orgId,
          identifier: 'iPhone_ABC123',
          owner: 'Sam Field',
          description: 'Van 3',
          pushToken: 'apns-1',
          secretHash: 'secret-hash-1',
        });

        expect(enrolled).toEqual({
          id: expect.any(Number),
          orgId,
          identifier: 'iPhone_ABC123',
          owner: 'Sam Field',
          description: 'Van 3',
          pendingApproval: true,
          pushToken: 'apns-1',
          groupIds: [],
          createdAt: isoTimestamp,
        });
        expect(await store.getDevice(orgId, enrolled.id)).toEqual(enrolled);
        expect(await store.findDeviceByIdentifier(orgId, 'iPhone_ABC123')).toEqual(enrolled);
        expect(await store.findDeviceBySecretHash('secret-hash-1')).toEqual(enrolled);
      });

      it('enrolls a device without a push token', async () => {
        const orgId = await newOrgId();
        const enrolled = await store.enrollDevice({
          orgId,
          identifier: uniqueName('Android'),
          owner: '',
          description: '',
          pushToken: null,
          secretHash: uniqueName('secret'),
        });
        expect(await device(orgId, enrolled.id)).toMatchObject({ pushToken: null, owner: '', description: '' });
      });

      it('enrolls a device into the groups given', async () => {
        const orgId = await newOrgId();
        const north = await newGroup(orgId, 'North');
        const home = await defaultGroup(orgId);
        const enrolled = await store.enrollDevice({
          orgId,
          identifier: uniqueName('Android'),
          owner: 'Sam',
          description: '',
          pushToken: null,
          secretHash: uniqueName('secret'),
          groupIds: [north.id, home.id, north.id],
        });

        expect(enrolled.groupIds).toEqual([home.id, north.id]);
        expect(enrolled.pendingApproval).toBe(true);
        expect(await store.getDevice(orgId, enrolled.id)).toEqual(enrolled);
        expect((await group(orgId, north.id)).deviceIds).toEqual([enrolled.id]);
        expect((await defaultGroup(orgId)).deviceIds).toEqual([enrolled.id]);
      });

      it('refuses to enroll into an unknown group, enrolling nothing', async () => {
        const orgId = await newOrgId();
        const home = await defaultGroup(orgId);
        await expectAppError(
          store.enrollDevice({
            orgId,
            identifier: 'Android_nogroup',
            owner: '',
            description: '',
            pushToken: null,
            secretHash: 'secret-nogroup',
            groupIds: [home.id, unknownId],
          }),
          'invalid',
          `Group ${unknownId} does not exist`,
        );
        expect(await store.listDevices(orgId)).toEqual([]);
        expect(await store.findDeviceBySecretHash('secret-nogroup')).toBeNull();
        expect((await defaultGroup(orgId)).deviceIds).toEqual([]);
        expect((await newDevice(orgId, { identifier: 'Android_nogroup' })).identifier).toBe('Android_nogroup');
      });

      it('answers null for an unknown device, identifier or secret', async () => {
        const orgId = await newOrgId();
        expect(await store.getDevice(orgId, unknownId)).toBeNull();
        expect(await store.findDeviceByIdentifier(orgId, 'Android_nothing')).toBeNull();
        expect(await store.findDeviceBySecretHash('no-such-secret')).toBeNull();
      });

      it('refuses an identifier already enrolled, in this or another organization', async () => {
        const orgId = await newOrgId();
        const otherOrgId = await newOrgId();
        await newDevice(orgId, { identifier: 'Android_1' });

        await expectAppError(newDevice(orgId, { identifier: 'Android_1' }), 'conflict', 'Device identifier "Android_1" is already enrolled');
        await expectAppError(newDevice(otherOrgId, { identifier: 'Android_1' }), 'conflict');
        expect(await store.listDevices(orgId)).toHaveLength(1);
        expect(await store.listDevices(otherOrgId)).toEqual([]);
      });

      it('lets exactly one of two simultaneous enrollments of an identifier win', async () => {
        const orgId = await newOrgId();
        const outcomes = await Promise.allSettled([
          newDevice(orgId, { identifier: 'Android_race' }),
          newDevice(orgId, { identifier: 'Android_race' }),
        ]);
        expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
        const rejected = outcomes.find((o): o is PromiseRejectedResult => o.status === 'rejected');
        expect(isAppError(rejected?.reason) && rejected.reason.code).toBe('conflict');
        expect(await store.listDevices(orgId)).toHaveLength(1);
      });

      it('refuses to enroll into an unknown organization', async () => {
        await expectAppError(
          newDevice(unknownId, { secretHash: 'secret-orphan' }),
          'not_found',
          `Organization ${unknownId} does not exist`,
        );
        expect(await store.findDeviceBySecretHash('secret-orphan')).toBeNull();
      });

      it('lists devices ascending, and only approved ones on request', async () => {
        const orgId = await newOrgId();
        const first = await newDevice(orgId);
        const second = await newDevice(orgId);
        const third = await newDevice(orgId);
        await store.approveDevice(orgId, third.id);
        await store.approveDevice(orgId, first.id);

        expect((await store.listDevices(orgId)).map((d) => d.id)).toEqual([first.id, second.id, third.id]);
        expect((await store.listDevices(orgId, {})).map((d) => d.id)).toEqual([first.id, second.id, third.id]);
        const approved = await store.listDevices(orgId, { approvedOnly: true });
        expect(approved.map((d) => d.id)).toEqual([first.id, third.id]);
        expect(approved.every((d) => !d.pendingApproval)).toBe(true);
      });

      it('approves a device', async () => {
        const orgId = await newOrgId();
        const enrolled = await newDevice(orgId);
        const approved = await store.approveDevice(orgId, enrolled.id);
        expect(approved).toEqual({ ...enrolled, pendingApproval: false });
        expect(await store.getDevice(orgId, enrolled.id)).toEqual(approved);
      });

      it('refuses to approve an unknown device', async () => {
        const orgId = await newOrgId();
        await expectAppError(store.approveDevice(orgId, unknownId), 'not_found', `Device ${unknownId} does not exist`);
      });

      describe('clearPushTokenIf', () => {
        it('clears the token only while it is the one given, and only for that organization', async () => {
          const orgId = await newOrgId();
          const otherOrgId = await newOrgId();
          const enrolled = await newDevice(orgId);
          await store.updateDevice(orgId, enrolled.id, { pushToken: 'fcm-new' });

          expect(await store.clearPushTokenIf(orgId, enrolled.id, 'fcm-old')).toBeNull();
          expect(await store.clearPushTokenIf(otherOrgId, enrolled.id, 'fcm-new')).toBeNull();
          expect(await store.clearPushTokenIf(orgId, unknownId, 'fcm-new')).toBeNull();
          expect((await store.getDevice(orgId, enrolled.id))?.pushToken).toBe('fcm-new');

          const cleared = await store.clearPushTokenIf(orgId, enrolled.id, 'fcm-new');
          expect(cleared).toEqual({ ...enrolled, pushToken: null });
          expect(await store.getDevice(orgId, enrolled.id)).toEqual(cleared);
          expect(await store.clearPushTokenIf(orgId, enrolled.id, 'fcm-new')).toBeNull();
        });
      });

      describe('updateDevice', () => {
        it('changes owner, description and push token', async () => {
          const orgId = await newOrgId();
          const enrolled = await newDevice(orgId);
          const updated = await store.updateDevice(orgId, enrolled.id, {
            owner: 'Alex',
            description: 'Van 4',
            pushToken: 'fcm-token-2',
          });
          expect(updated).toEqual({ ...enrolled, owner: 'Alex', description: 'Van 4', pushToken: 'fcm-token-2' });
          expect(await store.getDevice(orgId, enrolled.id)).toEqual(updated);
        });

        it('leaves fields that are not given unchanged, and clears the push token on null', async () => {
          const orgId = await newOrgId();
          const north = await newGroup(orgId);
          const enrolled = await newDevice(orgId);
          await store.updateDevice(orgId, enrolled.id, { groupIds: [north.id] });

          expect(await store.updateDevice(orgId, enrolled.id, { owner: 'Alex' })).toEqual({
            ...enrolled,
            owner: 'Alex',
            groupIds: [north.id],
          });
          expect(await store.updateDevice(orgId, enrolled.id, { pushToken: null })).toEqual({
            ...enrolled,
            owner: 'Alex',
            pushToken: null,
            groupIds: [north.id],
          });
          expect(await store.updateDevice(orgId, enrolled.id, {})).toEqual({
            ...enrolled,
            owner: 'Alex',
            pushToken: null,
            groupIds: [north.id],
          });
        });

        it('replaces its groups', async () => {
          const orgId = await newOrgId();
          const north = await newGroup(orgId, 'North');
          const south = await newGroup(orgId, 'South');
          const east = await newGroup(orgId, 'East');
          const enrolled = await newDevice(orgId);

          const inTwo = await store.updateDevice(orgId, enrolled.id, { groupIds: [south.id, north.id] });
          expect(inTwo.groupIds).toEqual([north.id, south.id]);
          expect((await group(orgId, north.id)).deviceIds).toEqual([enrolled.id]);

          const moved = await store.updateDevice(orgId, enrolled.id, { groupIds: [east.id] });
          expect(moved.groupIds).toEqual([east.id]);
          expect((await group(orgId, north.id)).deviceIds).toEqual([]);
          expect((await group(orgId, south.id)).deviceIds).toEqual([]);
          expect((await group(orgId, east.id)).deviceIds).toEqual([enrolled.id]);

          expect((await store.updateDevice(orgId, enrolled.id, { groupIds: [] })).groupIds).toEqual([]);
        });

        it('changes nothing when one group id is unknown', async () => {
          const orgId = await newOrgId();
          const north = await newGroup(orgId);
          const enrolled = await newDevice(orgId);
          await store.updateDevice(orgId, enrolled.id, { groupIds: [north.id] });
          const before = await device(orgId, enrolled.id);

          await expectAppError(
            store.updateDevice(orgId, enrolled.id, { owner: 'Changed', groupIds: [unknownId] }),
            'invalid',
            `Group ${unknownId} does not exist`,
          );

          expect(await store.getDevice(orgId, enrolled.id)).toEqual(before);
          expect((await group(orgId, north.id)).deviceIds).toEqual([enrolled.id]);
        });

        it('refuses an unknown device', async () => {
          const orgId = await newOrgId();
          await expectAppError(store.updateDevice(orgId, unknownId, { owner: 'x' }), 'not_found', `Device ${unknownId} does not exist`);
        });
      });

      it('deletes a device and its memberships', async () => {
        const orgId = await newOrgId();
        const north = await newGroup(orgId);
        const gone = await newDevice(orgId, { secretHash: 'secret-gone' });
        const stays = await newDevice(orgId);
        await store.updateGroup(orgId, north.id, { deviceIds: [gone.id, stays.id] });

        await store.deleteDevice(orgId, gone.id);

        expect(await store.getDevice(orgId, gone.id)).toBeNull();
        expect(await store.findDeviceByIdentifier(orgId, gone.identifier)).toBeNull();
        expect(await store.findDeviceBySecretHash('secret-gone')).toBeNull();
        expect((await group(orgId, north.id)).deviceIds).toEqual([stays.id]);
        expect((await store.listDevices(orgId)).map((d) => d.id)).toEqual([stays.id]);
      });

      it('lets a deleted identifier enroll again', async () => {
        const orgId = await newOrgId();
        const gone = await newDevice(orgId, { identifier: 'Android_again' });
        await store.deleteDevice(orgId, gone.id);
        const again = await newDevice(orgId, { identifier: 'Android_again' });
        expect(again.id).not.toBe(gone.id);
      });

      it('refuses to delete an unknown device', async () => {
        const orgId = await newOrgId();
        await expectAppError(store.deleteDevice(orgId, unknownId), 'not_found', `Device ${unknownId} does not exist`);
      });
    });

    // Forms --------------------------------------------------------------------------------

    describe('forms', () => {
      it('creates a form at revision 1 in the Default group', async () => {
        const orgId = await newOrgId();
        const created = await store.createForm({
          orgId,
          name: 'Inspection',
          namespace: 'http://forms.example.com/inspection',
          description: 'Weekly',
          definition: definition('Inspection'),
        });

        const home = await defaultGroup(orgId);
        expect(created).toEqual({
          id: expect.any(Number),
          orgId,
          name: 'Inspection',
          namespace: 'http://forms.example.com/inspection',
          description: 'Weekly',
          revision: 1,
          groupId: home.id,
          definition: definition('Inspection'),
          createdAt: isoTimestamp,
          updatedAt: created.createdAt,
        });
        expect(home.formIds).toEqual([created.id]);
        expect(await store.getForm(orgId, created.id)).toEqual(created);
        expect(await store.findFormByNamespace(orgId, 'http://forms.example.com/inspection')).toEqual(created);
      });

      it('creates a form in the group given', async () => {
        const orgId = await newOrgId();
        const north = await newGroup(orgId);
        const created = await newForm(orgId, { groupId: north.id });
        expect(created.groupId).toBe(north.id);
        expect((await group(orgId, north.id)).formIds).toEqual([created.id]);
      });

      it('refuses an unknown group, creating nothing', async () => {
        const orgId = await newOrgId();
        await expectAppError(newForm(orgId, { groupId: unknownId }), 'not_found', `Group ${unknownId} does not exist`);
        expect(await store.listForms(orgId)).toEqual([]);
      });

      it('refuses an unknown organization', async () => {
        await expectAppError(newForm(unknownId), 'not_found');
      });

      it('refuses a namespace the organization already has, but not one another organization has', async () => {
        const orgId = await newOrgId();
        const otherOrgId = await newOrgId();
        const namespace = 'http://forms.example.com/shared';
        const first = await newForm(orgId, { namespace });

        await expectAppError(newForm(orgId, { namespace }), 'conflict', `A form with namespace "${namespace}" already exists`);
        const elsewhere = await newForm(otherOrgId, { namespace });

        expect(elsewhere.id).not.toBe(first.id);
        expect(await store.listForms(orgId)).toEqual([first]);
        expect(await store.findFormByNamespace(otherOrgId, namespace)).toEqual(elsewhere);
      });

      it('lists forms ascending by id', async () => {
        const orgId = await newOrgId();
        const a = await newForm(orgId);
        const b = await newForm(orgId);
        const c = await newForm(orgId);
        expect(await store.listForms(orgId)).toEqual([a, b, c]);
      });

      it('answers null for an unknown form or namespace', async () => {
        const orgId = await newOrgId();
        expect(await store.getForm(orgId, unknownId)).toBeNull();
        expect(await store.findFormByNamespace(orgId, 'http://nowhere')).toBeNull();
      });

      it('replaces the definition, taking the name from its title and adding a revision', async () => {
        const orgId = await newOrgId();
        const created = await newForm(orgId, { title: 'Inspection' });
        const next = { ...definition('Inspection v2'), children: [{ identifier: 'only', type: 'text' }] };

        const replaced = await store.replaceFormDefinition(orgId, created.id, next);

        expect(replaced).toEqual({
          ...created,
          name: 'Inspection v2',
          revision: 2,
          definition: next,
          updatedAt: isoTimestamp,
        });
        expect(replaced.updatedAt >= created.updatedAt).toBe(true);
        expect(await store.getForm(orgId, created.id)).toEqual(replaced);
        expect((await store.replaceFormDefinition(orgId, created.id, next)).revision).toBe(3);
      });

      it('refuses to replace the definition of an unknown form', async () => {
        const orgId = await newOrgId();
        await expectAppError(
          store.replaceFormDefinition(orgId, unknownId, definition('x')),
          'not_found',
          `Form ${unknownId} does not exist`,
        );
      });

      it('moves a form to another group', async () => {
        const orgId = await newOrgId();
        const north = await newGroup(orgId, 'North');
        const south = await newGroup(orgId, 'South');
        const created = await newForm(orgId, { groupId: north.id });

        const moved = await store.moveForm(orgId, created.id, south.id);

        expect(moved).toMatchObject({ id: created.id, groupId: south.id, revision: 1 });
        expect((await group(orgId, north.id)).formIds).toEqual([]);
        expect((await group(orgId, south.id)).formIds).toEqual([created.id]);
        const home = await defaultGroup(orgId);
        expect((await store.moveForm(orgId, created.id, home.id)).groupId).toBe(home.id);
      });

      it('refuses to move to an unknown group, or an unknown form', async () => {
        const orgId = await newOrgId();
        const created = await newForm(orgId);
        await expectAppError(store.moveForm(orgId, created.id, unknownId), 'not_found', `Group ${unknownId} does not exist`);
        expect(await store.getForm(orgId, created.id)).toEqual(created);
        const north = await newGroup(orgId);
        await expectAppError(store.moveForm(orgId, unknownId, north.id), 'not_found', `Form ${unknownId} does not exist`);
      });

      it('deletes a form', async () => {
        const orgId = await newOrgId();
        const north = await newGroup(orgId);
        const gone = await newForm(orgId, { groupId: north.id });
        const stays = await newForm(orgId, { groupId: north.id });

        await store.deleteForm(orgId, gone.id);

        expect(await store.getForm(orgId, gone.id)).toBeNull();
        expect(await store.findFormByNamespace(orgId, gone.namespace)).toBeNull();
        expect(await store.listForms(orgId)).toEqual([stays]);
        expect((await group(orgId, north.id)).formIds).toEqual([stays.id]);
        await expectAppError(store.deleteForm(orgId, gone.id), 'not_found', `Form ${gone.id} does not exist`);
      });

      it('lets a deleted namespace be used again', async () => {
        const orgId = await newOrgId();
        const gone = await newForm(orgId, { namespace: 'http://forms.example.com/reused' });
        await store.deleteForm(orgId, gone.id);
        const again = await newForm(orgId, { namespace: 'http://forms.example.com/reused' });
        expect(again.id).not.toBe(gone.id);
      });
    });

    // Organization scoping -------------------------------------------------------------------

    describe("another organization's ids act as unknown ids", () => {
      async function twoOrganizations() {
        const mine = await newOrganization('Mine');
        const theirs = await newOrganization('Theirs');
        const orgId = mine.organization.id;
        const otherOrgId = theirs.organization.id;
        const theirGroup = await newGroup(otherOrgId, 'Theirs only');
        const theirForm = await newForm(otherOrgId, { groupId: theirGroup.id });
        const theirDevice = await newDevice(otherOrgId);
        await store.updateGroup(otherOrgId, theirGroup.id, { deviceIds: [theirDevice.id] });
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

        expect(await store.getGroup(orgId, theirs.group.id)).toBeNull();
        expect(await store.findGroupByName(orgId, theirs.group.name)).toBeNull();
        expect(await store.getDevice(orgId, theirs.device.id)).toBeNull();
        expect(await store.findDeviceByIdentifier(orgId, theirs.device.identifier)).toBeNull();
        expect(await store.getForm(orgId, theirs.form.id)).toBeNull();
        expect(await store.findFormByNamespace(orgId, theirs.form.namespace)).toBeNull();
        expect((await store.listGroups(orgId)).map((g) => g.name)).toEqual(['Default']);
        expect((await store.listGroups(orgId))[0]).toMatchObject({ formIds: [], deviceIds: [] });
        expect(await store.listDevices(orgId)).toEqual([]);
        expect(await store.listForms(orgId)).toEqual([]);
        expect((await store.listApiTokens(orgId)).map((t) => t.id)).not.toContain(theirs.token.id);
      });

      it('changes to them answer not_found and change nothing', async () => {
        const { orgId, otherOrgId, theirs } = await twoOrganizations();
        const myForm = await newForm(orgId);
        const notFound = (action: Promise<unknown>) => expectAppError(action, 'not_found');

        await notFound(store.revokeApiToken(orgId, theirs.token.id));
        await notFound(store.updateGroup(orgId, theirs.group.id, { name: 'Stolen' }));
        await notFound(store.deleteGroup(orgId, theirs.group.id));
        await notFound(store.deleteGroup(orgId, theirs.defaultGroup.id));
        await notFound(store.updateDevice(orgId, theirs.device.id, { owner: 'Thief' }));
        await notFound(store.approveDevice(orgId, theirs.device.id));
        await notFound(store.deleteDevice(orgId, theirs.device.id));
        await notFound(store.replaceFormDefinition(orgId, theirs.form.id, definition('Stolen')));
        await notFound(store.moveForm(orgId, theirs.form.id, (await defaultGroup(orgId)).id));
        await notFound(store.moveForm(orgId, myForm.id, theirs.group.id));
        await notFound(store.deleteForm(orgId, theirs.form.id));
        await notFound(newForm(orgId, { groupId: theirs.group.id }));

        expect((await store.listApiTokens(otherOrgId))[0]).toEqual(theirs.token);
        expect(await store.getGroup(otherOrgId, theirs.group.id)).toEqual(theirs.group);
        expect(await store.getDevice(otherOrgId, theirs.device.id)).toEqual(theirs.device);
        expect(await store.getForm(otherOrgId, theirs.form.id)).toEqual(theirs.form);
        expect(await store.getForm(orgId, myForm.id)).toEqual(myForm);
      });

      it('using them as members answers invalid and changes nothing', async () => {
        const { orgId, otherOrgId, theirs } = await twoOrganizations();
        const mine = await newGroup(orgId, 'Mine');
        const myDevice = await newDevice(orgId);

        await expectAppError(
          store.updateGroup(orgId, mine.id, { formIds: [theirs.form.id] }),
          'invalid',
          `Form ${theirs.form.id} does not exist`,
        );
        await expectAppError(
          store.updateGroup(orgId, mine.id, { deviceIds: [theirs.device.id] }),
          'invalid',
          `Device ${theirs.device.id} does not exist`,
        );
        await expectAppError(
          store.updateDevice(orgId, myDevice.id, { groupIds: [theirs.group.id] }),
          'invalid',
          `Group ${theirs.group.id} does not exist`,
        );
        await expectAppError(
          store.enrollDevice({
            orgId,
            identifier: uniqueName('Android'),
            owner: '',
            description: '',
            pushToken: null,
            secretHash: uniqueName('secret'),
            groupIds: [theirs.group.id],
          }),
          'invalid',
          `Group ${theirs.group.id} does not exist`,
        );
        expect(await store.listDevices(orgId)).toEqual([myDevice]);

        expect(await group(orgId, mine.id)).toEqual(mine);
        expect(await device(orgId, myDevice.id)).toEqual(myDevice);
        expect(await store.getGroup(otherOrgId, theirs.group.id)).toEqual(theirs.group);
        expect(await store.getForm(otherOrgId, theirs.form.id)).toEqual(theirs.form);
        expect(await store.getDevice(otherOrgId, theirs.device.id)).toEqual(theirs.device);
      });
    });

    it('answers ping', async () => {
      await expect(store.ping()).resolves.toBeUndefined();
    });
  });
}
