import { isAppError } from '@formcast/platform';
import type { DirectoryContractFixtures } from '../contract-fixtures';

/** The devices part of the directory store contract (see describeDirectoryStoreContract). */
export function describeDeviceStoreContract(f: DirectoryContractFixtures): void {
  const { unknownId, newOrgId, enrollment, newDevice, newGroup, updateGroup, approveDevice, defaultGroup, group, device, expectAppError } = f;

  describe('devices', () => {
    it('enrolls a device pending approval, in no group', async () => {
      const orgId = await newOrgId();
      const { secretHash: _secretHash, ...shown } = enrollment(orgId, {
        identifier: 'iPhone_ABC123',
        owner: 'Sam Field',
        description: 'Van 3',
        pushToken: 'apns-1',
        secretHash: 'secret-hash-1',
      });
      expect(shown).toMatchObject({ pendingApproval: true, groupIds: [] });

      const enrolled = await f.store.devices.enroll({ ...shown, secretHash: 'secret-hash-1' });

      expect(enrolled).toEqual({ id: expect.any(Number), ...shown });
      expect(await f.store.devices.get(orgId, enrolled.id)).toEqual(enrolled);
      expect(await f.store.devices.findByIdentifier(orgId, 'iPhone_ABC123')).toEqual(enrolled);
      expect(await f.store.devices.findBySecretHash('secret-hash-1')).toEqual(enrolled);
    });

    it('enrolls a device with the versions it reports, and reads a device that reported none as null', async () => {
      const orgId = await newOrgId();
      const reported = await newDevice(orgId, { osVersion: 'Android 14', appIdentifier: 'com.example.forms', appVersion: '7.2.1' });
      const silent = await newDevice(orgId);

      expect(await device(orgId, reported.id)).toMatchObject({ osVersion: 'Android 14', appIdentifier: 'com.example.forms', appVersion: '7.2.1' });
      expect(await device(orgId, silent.id)).toMatchObject({ osVersion: null, appIdentifier: null, appVersion: null, customAttributes: {} });
      expect(await f.store.devices.list(orgId)).toEqual([reported, silent]);
    });

    it('enrolls a device without a push token', async () => {
      const orgId = await newOrgId();
      const enrolled = await newDevice(orgId, { owner: '', description: '', pushToken: null });
      expect(await device(orgId, enrolled.id)).toMatchObject({ pushToken: null, owner: '', description: '' });
    });

    it('enrolls a device into the groups given', async () => {
      const orgId = await newOrgId();
      const north = await newGroup(orgId, 'North');
      const home = await defaultGroup(orgId);
      const enrolled = await newDevice(orgId, { groupIds: [north.id, home.id, north.id] });

      expect(enrolled.groupIds).toEqual([home.id, north.id]);
      expect(enrolled.pendingApproval).toBe(true);
      expect(await f.store.devices.get(orgId, enrolled.id)).toEqual(enrolled);
      expect((await group(orgId, north.id)).deviceIds).toEqual([enrolled.id]);
      expect((await defaultGroup(orgId)).deviceIds).toEqual([enrolled.id]);
    });

    it('refuses to enroll into an unknown group, enrolling nothing', async () => {
      const orgId = await newOrgId();
      const home = await defaultGroup(orgId);
      await expectAppError(
        newDevice(orgId, { identifier: 'Android_nogroup', secretHash: 'secret-nogroup', groupIds: [home.id, unknownId] }),
        'invalid',
        `Group ${unknownId} does not exist`,
      );
      expect(await f.store.devices.list(orgId)).toEqual([]);
      expect(await f.store.devices.findBySecretHash('secret-nogroup')).toBeNull();
      expect((await defaultGroup(orgId)).deviceIds).toEqual([]);
      expect((await newDevice(orgId, { identifier: 'Android_nogroup' })).identifier).toBe('Android_nogroup');
    });

    it('answers null for an unknown device, identifier or secret', async () => {
      const orgId = await newOrgId();
      expect(await f.store.devices.get(orgId, unknownId)).toBeNull();
      expect(await f.store.devices.findByIdentifier(orgId, 'Android_nothing')).toBeNull();
      expect(await f.store.devices.findBySecretHash('no-such-secret')).toBeNull();
    });

    it('refuses an identifier already enrolled in the organization, and a secret hash another device has', async () => {
      const orgId = await newOrgId();
      const otherOrgId = await newOrgId();
      const taken = enrollment(orgId, { identifier: 'Android_1' });
      await f.store.devices.enroll(taken);

      await expectAppError(newDevice(orgId, { identifier: 'Android_1' }), 'conflict', 'Device identifier "Android_1" is already enrolled');
      await expectAppError(newDevice(otherOrgId, { secretHash: taken.secretHash }), 'conflict', 'This device secret is already in use');
      expect(await f.store.devices.list(orgId)).toHaveLength(1);
      expect(await f.store.devices.list(otherOrgId)).toEqual([]);
    });

    it('enrolls an identifier another organization has, and each organization finds only its own', async () => {
      const orgId = await newOrgId();
      const otherOrgId = await newOrgId();
      const mine = await newDevice(orgId, { identifier: 'Android_B0', owner: 'Mine' });
      const theirs = await newDevice(otherOrgId, { identifier: 'Android_B0', owner: 'Theirs' });

      expect(theirs.id).not.toBe(mine.id);
      expect(await f.store.devices.findByIdentifier(orgId, 'Android_B0')).toEqual(mine);
      expect(await f.store.devices.findByIdentifier(otherOrgId, 'Android_B0')).toEqual(theirs);
      expect(await f.store.devices.list(orgId)).toEqual([mine]);
      expect(await f.store.devices.list(otherOrgId)).toEqual([theirs]);
      expect(await f.store.devices.get(orgId, theirs.id)).toBeNull();

      await f.store.devices.delete(otherOrgId, theirs.id);
      expect(await f.store.devices.findByIdentifier(orgId, 'Android_B0')).toEqual(mine);
      expect(await f.store.devices.findByIdentifier(otherOrgId, 'Android_B0')).toBeNull();
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
      expect(await f.store.devices.list(orgId)).toHaveLength(1);
    });

    it('refuses to enroll into an unknown organization', async () => {
      await expectAppError(
        newDevice(unknownId, { secretHash: 'secret-orphan' }),
        'not_found',
        `Organization ${unknownId} does not exist`,
      );
      expect(await f.store.devices.findBySecretHash('secret-orphan')).toBeNull();
    });

    it('lists devices ascending, and only approved ones on request', async () => {
      const orgId = await newOrgId();
      const first = await newDevice(orgId);
      const second = await newDevice(orgId);
      const third = await newDevice(orgId);
      await approveDevice(orgId, third.id);
      await approveDevice(orgId, first.id);

      expect((await f.store.devices.list(orgId)).map((d) => d.id)).toEqual([first.id, second.id, third.id]);
      expect((await f.store.devices.list(orgId, {})).map((d) => d.id)).toEqual([first.id, second.id, third.id]);
      const approved = await f.store.devices.list(orgId, { approvedOnly: true });
      expect(approved.map((d) => d.id)).toEqual([first.id, third.id]);
      expect(approved.every((d) => !d.pendingApproval)).toBe(true);
    });

    it('approves a device', async () => {
      const orgId = await newOrgId();
      const enrolled = await newDevice(orgId);
      const approved = await approveDevice(orgId, enrolled.id);
      expect(approved).toEqual({ ...enrolled, pendingApproval: false });
      expect(await f.store.devices.get(orgId, enrolled.id)).toEqual(approved);
    });

    it('refuses to approve an unknown device', async () => {
      const orgId = await newOrgId();
      await expectAppError(approveDevice(orgId, unknownId), 'not_found', `Device ${unknownId} does not exist`);
    });

    describe('clearPushTokenIf', () => {
      it('clears the token only while it is the one given, and only for that organization', async () => {
        const orgId = await newOrgId();
        const otherOrgId = await newOrgId();
        const enrolled = await newDevice(orgId);
        await f.store.devices.update(orgId, enrolled.id, { pushToken: 'fcm-new' });

        expect(await f.store.devices.clearPushTokenIf(orgId, enrolled.id, 'fcm-old')).toBeNull();
        expect(await f.store.devices.clearPushTokenIf(otherOrgId, enrolled.id, 'fcm-new')).toBeNull();
        expect(await f.store.devices.clearPushTokenIf(orgId, unknownId, 'fcm-new')).toBeNull();
        expect((await f.store.devices.get(orgId, enrolled.id))?.pushToken).toBe('fcm-new');

        const cleared = await f.store.devices.clearPushTokenIf(orgId, enrolled.id, 'fcm-new');
        expect(cleared).toEqual({ ...enrolled, pushToken: null });
        expect(await f.store.devices.get(orgId, enrolled.id)).toEqual(cleared);
        expect(await f.store.devices.clearPushTokenIf(orgId, enrolled.id, 'fcm-new')).toBeNull();
      });
    });

    describe('updateDevice', () => {
      it('changes owner, description and push token', async () => {
        const orgId = await newOrgId();
        const enrolled = await newDevice(orgId);
        const updated = await f.store.devices.update(orgId, enrolled.id, {
          owner: 'Alex',
          description: 'Van 4',
          pushToken: 'fcm-token-2',
        });
        expect(updated).toEqual({ ...enrolled, owner: 'Alex', description: 'Van 4', pushToken: 'fcm-token-2' });
        expect(await f.store.devices.get(orgId, enrolled.id)).toEqual(updated);
      });

      it('leaves fields that are not given unchanged, and clears the push token on null', async () => {
        const orgId = await newOrgId();
        const north = await newGroup(orgId);
        const enrolled = await newDevice(orgId);
        await f.store.devices.update(orgId, enrolled.id, { groupIds: [north.id] });

        expect(await f.store.devices.update(orgId, enrolled.id, { owner: 'Alex' })).toEqual({
          ...enrolled,
          owner: 'Alex',
          groupIds: [north.id],
        });
        expect(await f.store.devices.update(orgId, enrolled.id, { pushToken: null })).toEqual({
          ...enrolled,
          owner: 'Alex',
          pushToken: null,
          groupIds: [north.id],
        });
        expect(await f.store.devices.update(orgId, enrolled.id, {})).toEqual({
          ...enrolled,
          owner: 'Alex',
          pushToken: null,
          groupIds: [north.id],
        });
      });

      it('changes the versions a device reports, leaving the others as they are', async () => {
        const orgId = await newOrgId();
        const enrolled = await newDevice(orgId, { osVersion: 'iOS 17.4', appIdentifier: 'com.example.forms', appVersion: '7.0' });
        const updated = await f.store.devices.update(orgId, enrolled.id, { osVersion: 'iOS 18.0', appVersion: '7.1' });
        expect(updated).toEqual({ ...enrolled, osVersion: 'iOS 18.0', appVersion: '7.1' });
        expect(await f.store.devices.get(orgId, enrolled.id)).toEqual(updated);
      });

      it('replaces its custom attributes, keeping names MongoDB field names could not hold', async () => {
        const orgId = await newOrgId();
        const enrolled = await newDevice(orgId);
        // Parsed, as the API's bodies are: "__proto__" is then a name like any other.
        const first = JSON.parse('{"region":"North","asset.tag":"A-17","$cost":"12","__proto__":"not special","é 📱":"ünïcode"}') as Record<
          string,
          string
        >;

        const set = await f.store.devices.update(orgId, enrolled.id, { customAttributes: first });
        expect(set).toEqual({ ...enrolled, customAttributes: first });
        const read = await device(orgId, enrolled.id);
        expect(read.customAttributes).toEqual(first);
        expect(Object.keys(read.customAttributes)).toContain('__proto__');
        expect(Object.getPrototypeOf(read.customAttributes)).toBe(Object.prototype);

        const replaced = await f.store.devices.update(orgId, enrolled.id, { customAttributes: { floor: '3' } });
        expect(replaced.customAttributes).toEqual({ floor: '3' });
        expect((await device(orgId, enrolled.id)).customAttributes).toEqual({ floor: '3' });
        expect((await f.store.devices.update(orgId, enrolled.id, { owner: 'Alex' })).customAttributes).toEqual({ floor: '3' });
        expect((await f.store.devices.update(orgId, enrolled.id, { customAttributes: {} })).customAttributes).toEqual({});
        expect((await f.store.devices.list(orgId))[0]?.customAttributes).toEqual({});
      });

      it('replaces its groups', async () => {
        const orgId = await newOrgId();
        const north = await newGroup(orgId, 'North');
        const south = await newGroup(orgId, 'South');
        const east = await newGroup(orgId, 'East');
        const enrolled = await newDevice(orgId);

        const inTwo = await f.store.devices.update(orgId, enrolled.id, { groupIds: [south.id, north.id] });
        expect(inTwo.groupIds).toEqual([north.id, south.id]);
        expect((await group(orgId, north.id)).deviceIds).toEqual([enrolled.id]);

        const moved = await f.store.devices.update(orgId, enrolled.id, { groupIds: [east.id] });
        expect(moved.groupIds).toEqual([east.id]);
        expect((await group(orgId, north.id)).deviceIds).toEqual([]);
        expect((await group(orgId, south.id)).deviceIds).toEqual([]);
        expect((await group(orgId, east.id)).deviceIds).toEqual([enrolled.id]);

        expect((await f.store.devices.update(orgId, enrolled.id, { groupIds: [] })).groupIds).toEqual([]);
      });

      it('changes nothing when one group id is unknown', async () => {
        const orgId = await newOrgId();
        const north = await newGroup(orgId);
        const enrolled = await newDevice(orgId);
        await f.store.devices.update(orgId, enrolled.id, { groupIds: [north.id] });
        const before = await device(orgId, enrolled.id);

        await expectAppError(
          f.store.devices.update(orgId, enrolled.id, { owner: 'Changed', groupIds: [unknownId] }),
          'invalid',
          `Group ${unknownId} does not exist`,
        );

        expect(await f.store.devices.get(orgId, enrolled.id)).toEqual(before);
        expect((await group(orgId, north.id)).deviceIds).toEqual([enrolled.id]);
      });

      it('refuses an unknown device', async () => {
        const orgId = await newOrgId();
        await expectAppError(f.store.devices.update(orgId, unknownId, { owner: 'x' }), 'not_found', `Device ${unknownId} does not exist`);
      });
    });

    it('deletes a device and its memberships', async () => {
      const orgId = await newOrgId();
      const north = await newGroup(orgId);
      const gone = await newDevice(orgId, { secretHash: 'secret-gone' });
      const stays = await newDevice(orgId);
      await updateGroup(orgId, north.id, { deviceIds: [gone.id, stays.id] });
      const before = await device(orgId, gone.id);

      expect(await f.store.devices.delete(orgId, gone.id)).toEqual(before);

      expect(await f.store.devices.get(orgId, gone.id)).toBeNull();
      expect(await f.store.devices.findByIdentifier(orgId, gone.identifier)).toBeNull();
      expect(await f.store.devices.findBySecretHash('secret-gone')).toBeNull();
      expect((await group(orgId, north.id)).deviceIds).toEqual([stays.id]);
      expect((await f.store.devices.list(orgId)).map((d) => d.id)).toEqual([stays.id]);
    });

    it('lets a deleted identifier enroll again', async () => {
      const orgId = await newOrgId();
      const gone = await newDevice(orgId, { identifier: 'Android_again' });
      await f.store.devices.delete(orgId, gone.id);
      const again = await newDevice(orgId, { identifier: 'Android_again' });
      expect(again.id).not.toBe(gone.id);
    });

    it('refuses to delete an unknown device', async () => {
      const orgId = await newOrgId();
      await expectAppError(f.store.devices.delete(orgId, unknownId), 'not_found', `Device ${unknownId} does not exist`);
    });
  });
}
