import { randomUUID } from 'node:crypto';
import { newForm } from '../../../src/domain/form-rules';
import { type DirectoryContractFixtures, now } from '../contract-fixtures';

/** The forms part of the directory store contract (see describeDirectoryStoreContract). */
export function describeFormStoreContract(f: DirectoryContractFixtures): void {
  const { unknownId, isoTimestamp, newOrgId, definition, newForm: newFormIn, newGroup, reviseForm, defaultGroup, group, expectAppError } = f;

  describe('forms', () => {
    it('creates a form at revision 1 in the Default group', async () => {
      const orgId = await newOrgId();
      const namespace = 'http://forms.example.com/inspection';
      const posted = { ...definition('Inspection'), description: 'Weekly' };
      const createdAt = now();
      const created = await f.store.forms.create(
        newForm(posted, {
          orgId,
          groupId: await f.store.groups.defaultGroupId(orgId),
          generatedNamespace: namespace,
          now: createdAt,
        }),
        randomUUID(),
      );

      const home = await defaultGroup(orgId);
      expect(created).toEqual({
        id: expect.any(Number),
        orgId,
        name: 'Inspection',
        namespace,
        description: 'Weekly',
        revision: 1,
        locked: false,
        groupId: home.id,
        definition: { ...posted, namespace },
        createdAt,
        updatedAt: createdAt,
      });
      expect(home.formIds).toEqual([created.id]);
      expect(await f.store.forms.get(orgId, created.id)).toEqual(created);
      expect(await f.store.forms.findByNamespace(orgId, 'http://forms.example.com/inspection')).toEqual(created);
    });

    it('creates a form in the group given', async () => {
      const orgId = await newOrgId();
      const north = await newGroup(orgId);
      const created = await newFormIn(orgId, { groupId: north.id });
      expect(created.groupId).toBe(north.id);
      expect((await group(orgId, north.id)).formIds).toEqual([created.id]);
    });

    it('refuses an unknown group, creating nothing', async () => {
      const orgId = await newOrgId();
      await expectAppError(newFormIn(orgId, { groupId: unknownId }), 'not_found', `Group ${unknownId} does not exist`);
      expect(await f.store.forms.list(orgId)).toEqual([]);
    });

    it('refuses an unknown organization', async () => {
      await expectAppError(newFormIn(unknownId, { groupId: 1 }), 'not_found', `Organization ${unknownId} does not exist`);
    });

    it('refuses a namespace the organization already has, but not one another organization has', async () => {
      const orgId = await newOrgId();
      const otherOrgId = await newOrgId();
      const namespace = 'http://forms.example.com/shared';
      const first = await newFormIn(orgId, { namespace });

      await expectAppError(newFormIn(orgId, { namespace }), 'conflict', `A form with namespace "${namespace}" already exists`);
      const elsewhere = await newFormIn(otherOrgId, { namespace });

      expect(elsewhere.id).not.toBe(first.id);
      expect(await f.store.forms.list(orgId)).toEqual([first]);
      expect(await f.store.forms.findByNamespace(otherOrgId, namespace)).toEqual(elsewhere);
    });

    it('lists forms ascending by id', async () => {
      const orgId = await newOrgId();
      const a = await newFormIn(orgId);
      const b = await newFormIn(orgId);
      const c = await newFormIn(orgId);
      expect(await f.store.forms.list(orgId)).toEqual([a, b, c]);
    });

    it('answers null for an unknown form or namespace', async () => {
      const orgId = await newOrgId();
      expect(await f.store.forms.get(orgId, unknownId)).toBeNull();
      expect(await f.store.forms.findByNamespace(orgId, 'http://nowhere')).toBeNull();
    });

    it('replaces the definition, taking the name from its title and adding a revision', async () => {
      const orgId = await newOrgId();
      const created = await newFormIn(orgId, { title: 'Inspection' });
      const next = { ...definition('Inspection v2'), children: [{ identifier: 'only', type: 'text' }] };

      const replaced = await reviseForm(orgId, created.id, next);

      expect(replaced).toEqual({
        ...created,
        name: 'Inspection v2',
        revision: 2,
        definition: { ...next, namespace: created.namespace },
        updatedAt: isoTimestamp,
      });
      expect(replaced.updatedAt >= created.updatedAt).toBe(true);
      expect(await f.store.forms.get(orgId, created.id)).toEqual(replaced);
      expect((await reviseForm(orgId, created.id, next)).revision).toBe(3);
    });

    it('keeps each definition a new one replaces, by revision (form.md: ?version=)', async () => {
      const orgId = await newOrgId();
      const created = await newFormIn(orgId, { title: 'Inspection' });
      const second = { ...definition('Inspection v2'), children: [{ identifier: 'only', type: 'text' }] };
      await reviseForm(orgId, created.id, second);
      const third = await reviseForm(orgId, created.id, definition('Inspection v3'));

      expect(await f.store.forms.getVersion(orgId, created.id, 1)).toEqual({ revision: 1, name: 'Inspection', definition: created.definition });
      expect(await f.store.forms.getVersion(orgId, created.id, 2)).toEqual({ revision: 2, name: 'Inspection v2', definition: { ...second, namespace: created.namespace } });
      expect(await f.store.forms.getVersion(orgId, created.id, 3)).toEqual({ revision: 3, name: 'Inspection v3', definition: third.definition });
      expect(await f.store.forms.getVersion(orgId, created.id, 4)).toBeNull();
      expect(await f.store.forms.getVersion(orgId, unknownId, 1)).toBeNull();
      // Another organization's form, at a revision it has: not found from here.
      expect(await f.store.forms.getVersion(await newOrgId(), created.id, 1)).toBeNull();
    });

    it('keeps no earlier definition when the new one is refused', async () => {
      const orgId = await newOrgId();
      const created = await newFormIn(orgId);
      await expectAppError(reviseForm(orgId, created.id, { ...definition('Moved'), namespace: 'http://forms.example.com/elsewhere' }), 'invalid', /^namespace: /);
      expect(await f.store.forms.getVersion(orgId, created.id, 1)).toEqual({ revision: 1, name: created.name, definition: created.definition });
      expect(await f.store.forms.getVersion(orgId, created.id, 2)).toBeNull();
    });

    it('deletes a form with its earlier definitions', async () => {
      const orgId = await newOrgId();
      const gone = await newFormIn(orgId, { title: 'Gone' });
      await reviseForm(orgId, gone.id, definition('Gone v2'));
      await f.store.forms.delete(orgId, gone.id);
      expect(await f.store.forms.getVersion(orgId, gone.id, 1)).toBeNull();
    });

    it('changes nothing when the new definition names another namespace', async () => {
      const orgId = await newOrgId();
      const created = await newFormIn(orgId);
      await expectAppError(
        reviseForm(orgId, created.id, { ...definition('Moved'), namespace: 'http://forms.example.com/elsewhere' }),
        'invalid',
        /^namespace: /,
      );
      expect(await f.store.forms.get(orgId, created.id)).toEqual(created);
    });

    it('refuses to replace the definition of an unknown form', async () => {
      const orgId = await newOrgId();
      await expectAppError(
        reviseForm(orgId, unknownId, definition('x')),
        'not_found',
        `Form ${unknownId} does not exist`,
      );
    });

    it('moves a form to another group', async () => {
      const orgId = await newOrgId();
      const north = await newGroup(orgId, 'North');
      const south = await newGroup(orgId, 'South');
      const created = await newFormIn(orgId, { groupId: north.id });

      const moved = await f.store.forms.move(orgId, created.id, south.id, now());

      expect(moved).toMatchObject({ id: created.id, groupId: south.id, revision: 1 });
      expect((await group(orgId, north.id)).formIds).toEqual([]);
      expect((await group(orgId, south.id)).formIds).toEqual([created.id]);
      const home = await defaultGroup(orgId);
      expect((await f.store.forms.move(orgId, created.id, home.id, now())).groupId).toBe(home.id);
    });

    it('refuses to move to an unknown group, or an unknown form', async () => {
      const orgId = await newOrgId();
      const created = await newFormIn(orgId);
      await expectAppError(f.store.forms.move(orgId, created.id, unknownId, now()), 'not_found', `Group ${unknownId} does not exist`);
      expect(await f.store.forms.get(orgId, created.id)).toEqual(created);
      const north = await newGroup(orgId);
      await expectAppError(f.store.forms.move(orgId, unknownId, north.id, now()), 'not_found', `Form ${unknownId} does not exist`);
    });

    it('locks and unlocks a form, and refuses an unknown one or another organization\'s', async () => {
      const orgId = await newOrgId();
      const created = await newFormIn(orgId);
      expect(created.locked).toBe(false);
      const locked = await f.store.forms.setLocked(orgId, created.id, true, now());
      expect(locked).toMatchObject({ id: created.id, locked: true, revision: 1 });
      expect((await f.store.forms.get(orgId, created.id))!.locked).toBe(true);
      expect((await f.store.forms.setLocked(orgId, created.id, false, now())).locked).toBe(false);
      await expectAppError(f.store.forms.setLocked(orgId, unknownId, true, now()), 'not_found', `Form ${unknownId} does not exist`);
      await expectAppError(f.store.forms.setLocked(await newOrgId(), created.id, true, now()), 'not_found', `Form ${created.id} does not exist`);
      expect((await f.store.forms.get(orgId, created.id))!.locked).toBe(false);
    });

    it('deletes a form', async () => {
      const orgId = await newOrgId();
      const north = await newGroup(orgId);
      const gone = await newFormIn(orgId, { groupId: north.id });
      const stays = await newFormIn(orgId, { groupId: north.id });

      expect(await f.store.forms.delete(orgId, gone.id)).toEqual(gone);

      expect(await f.store.forms.get(orgId, gone.id)).toBeNull();
      expect(await f.store.forms.findByNamespace(orgId, gone.namespace)).toBeNull();
      expect(await f.store.forms.list(orgId)).toEqual([stays]);
      expect((await group(orgId, north.id)).formIds).toEqual([stays.id]);
      await expectAppError(f.store.forms.delete(orgId, gone.id), 'not_found', `Form ${gone.id} does not exist`);
    });

    it('lets a deleted namespace be used again', async () => {
      const orgId = await newOrgId();
      const gone = await newFormIn(orgId, { namespace: 'http://forms.example.com/reused' });
      await f.store.forms.delete(orgId, gone.id);
      const again = await newFormIn(orgId, { namespace: 'http://forms.example.com/reused' });
      expect(again.id).not.toBe(gone.id);
    });
  });
}
