import { isAppError } from '@formcast/platform';
import {
  defaultGroup,
  groupIdNamed,
  groupIdsNamed,
  planGroupDeletion,
  planGroupUpdate,
  splitGroupNames,
} from '../../src/domain/group-rules';
import type { Group } from '../../src/domain/records';
import { thrownBy } from '../thrown-by';

const now = '2030-05-01T10:00:00.000Z';
const homeId = 1;
const home: Group = { id: homeId, orgId: 7, name: 'Default', isDefault: true, formIds: [10, 11], deviceIds: [20], tags: [] };
const north: Group = { id: 2, orgId: 7, name: 'North', isDefault: false, formIds: [12, 13], deviceIds: [20, 21], tags: [] };

describe('the Default group', () => {
  it('is what an organization is founded with', () => {
    expect(defaultGroup).toEqual({ name: 'Default', isDefault: true });
  });
});

describe('splitGroupNames', () => {
  it('creates each new name once, in the order given, and reports the names that exist', () => {
    expect(splitGroupNames(['Default', 'North'], ['South', 'North', 'South', 'East', 'Default'])).toEqual({
      fresh: ['South', 'East'],
      existing: ['North', 'Default'],
    });
  });

  it('creates nothing when every name exists', () => {
    expect(splitGroupNames(new Set(['North']), ['North'])).toEqual({ fresh: [], existing: ['North'] });
  });
});

describe('planGroupUpdate', () => {
  it('changes nothing that is not asked', () => {
    expect(planGroupUpdate(north, {}, homeId, now)).toEqual({});
  });

  it('renames a group, but not to the name it has', () => {
    expect(planGroupUpdate(north, { name: 'Northern' }, homeId, now)).toEqual({ name: 'Northern' });
    expect(planGroupUpdate(north, { name: 'North' }, homeId, now)).toEqual({});
  });

  it('refuses to rename the Default group, and lets it keep its name', () => {
    const error = thrownBy(() => planGroupUpdate(home, { name: 'Home' }, homeId, now));
    expect(isAppError(error) && [error.code, error.message]).toEqual(['invalid', 'The Default group cannot be renamed']);
    expect(planGroupUpdate(home, { name: 'Default' }, homeId, now)).toEqual({});
  });

  it('moves listed forms in, and sends forms no longer listed back to Default', () => {
    expect(planGroupUpdate(north, { formIds: [13, 30, 31, 30] }, homeId, now)).toEqual({
      formMoves: [
        { formIds: [12], toGroupId: homeId, movedAt: now },
        { formIds: [30, 31], toGroupId: north.id, movedAt: now },
      ],
    });
  });

  it('sends every form back to Default when none is listed', () => {
    expect(planGroupUpdate(north, { formIds: [] }, homeId, now)).toEqual({
      formMoves: [{ formIds: [12, 13], toGroupId: homeId, movedAt: now }],
    });
  });

  it('moves nothing when the forms listed are the ones the group has', () => {
    expect(planGroupUpdate(north, { formIds: [13, 12] }, homeId, now)).toEqual({ formMoves: [] });
  });

  it('lets the Default group keep forms no longer listed: they have nowhere else to go', () => {
    expect(planGroupUpdate(home, { formIds: [12] }, homeId, now)).toEqual({
      formMoves: [{ formIds: [12], toGroupId: homeId, movedAt: now }],
    });
    expect(planGroupUpdate(home, { formIds: [] }, homeId, now)).toEqual({ formMoves: [] });
  });

  it('replaces the devices with those listed, each once', () => {
    expect(planGroupUpdate(north, { deviceIds: [22, 21, 22] }, homeId, now)).toEqual({ deviceIds: [22, 21] });
    expect(planGroupUpdate(north, { deviceIds: [] }, homeId, now)).toEqual({ deviceIds: [] });
    expect(planGroupUpdate(north, { tags: ['food', 'health', 'food'] }, homeId, now)).toEqual({ tags: ['food', 'health'] });
    expect(planGroupUpdate(home, { tags: [] }, homeId, now)).toEqual({ tags: [] });
  });

  it('changes name, forms and devices together', () => {
    expect(planGroupUpdate(north, { name: 'N', formIds: [12, 13], deviceIds: [21] }, homeId, now)).toEqual({
      name: 'N',
      formMoves: [],
      deviceIds: [21],
    });
  });
});

describe('planGroupDeletion', () => {
  it("sends the group's forms back to Default", () => {
    expect(planGroupDeletion(north, homeId, now)).toEqual({
      formMoves: [{ formIds: [12, 13], toGroupId: homeId, movedAt: now }],
    });
  });

  it('moves nothing for a group without forms', () => {
    expect(planGroupDeletion({ ...north, formIds: [] }, homeId, now)).toEqual({ formMoves: [] });
  });

  it('refuses to delete the Default group', () => {
    const error = thrownBy(() => planGroupDeletion(home, homeId, now));
    expect(isAppError(error) && [error.code, error.message]).toEqual(['invalid', 'The Default group cannot be deleted']);
  });
});

describe('groups by name', () => {
  const names = new Map([
    [1, 'Default'],
    [2, 'North'],
    [3, 'South'],
  ]);

  it('finds the id of each group named, each once', () => {
    expect(groupIdNamed(names, 'North', 'group')).toBe(2);
    expect(groupIdsNamed(names, ['South', 'Default', 'South'], 'groups')).toEqual([3, 1]);
    expect(groupIdsNamed(names, [], 'groups')).toEqual([]);
  });

  it('refuses a name the organization lacks, naming the request field', () => {
    const error = thrownBy(() => groupIdsNamed(names, ['North', 'West'], 'groups'));
    expect(isAppError(error) && [error.code, error.message]).toEqual(['invalid', 'groups: group "West" does not exist']);
    const single = thrownBy(() => groupIdNamed(names, 'north', 'group'));
    expect(isAppError(single) && single.message).toBe('group: group "north" does not exist');
  });
});
