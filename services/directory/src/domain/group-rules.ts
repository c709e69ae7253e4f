import { AppError } from '@formcast/platform';
import { defaultGroupNotDeletable, defaultGroupNotRenamable } from './errors';
import type { FormMove, Group, GroupChange, GroupDeletion, NewGroup } from './records';

/** The group every organization is founded with: never renamed or deleted, home of forms without a group. */
export const defaultGroup: NewGroup = { name: 'Default', isDefault: true };

/**
 * The names of a batch to create, each once: those the organization has already are
 * reported as existing, not created again (the API answers 304 when no name is new).
 */
export function splitGroupNames(
  existingNames: Iterable<string>,
  names: string[],
): { fresh: string[]; existing: string[] } {
  const taken = new Set(existingNames);
  const unique = [...new Set(names)];
  return { fresh: unique.filter((name) => !taken.has(name)), existing: unique.filter((name) => taken.has(name)) };
}

/** What an update of a group asks for; only what is given changes. */
export interface GroupPatch {
  name?: string;
  /** The group's forms from now on. */
  formIds?: number[];
  /** The group's devices from now on. */
  deviceIds?: number[];
  /** The group's tags from now on. */
  tags?: string[];
}

/**
 * What changes when a group is updated. The Default group keeps its name. A listed form
 * leaves its previous group; a form no longer listed goes back to Default (Default itself
 * keeps them: they have nowhere else to go). Devices may be in many groups, so replacing a
 * group's devices leaves their other memberships alone.
 */
export function planGroupUpdate(group: Group, patch: GroupPatch, defaultGroupId: number, now: string): GroupChange {
  const change: GroupChange = {};
  if (patch.name !== undefined && patch.name !== group.name) {
    if (group.isDefault) throw defaultGroupNotRenamable();
    change.name = patch.name;
  }
  if (patch.formIds) {
    const listed = new Set(patch.formIds);
    const present = new Set(group.formIds);
    const goingHome = group.isDefault ? [] : group.formIds.filter((id) => !listed.has(id));
    const comingIn = [...listed].filter((id) => !present.has(id));
    change.formMoves = moves([
      { formIds: goingHome, toGroupId: defaultGroupId, movedAt: now },
      { formIds: comingIn, toGroupId: group.id, movedAt: now },
    ]);
  }
  if (patch.deviceIds) change.deviceIds = [...new Set(patch.deviceIds)];
  if (patch.tags) change.tags = [...new Set(patch.tags)];
  return change;
}

/** The Default group is never deleted; another group's forms go back to Default, and its memberships end. */
export function planGroupDeletion(group: Group, defaultGroupId: number, now: string): GroupDeletion {
  if (group.isDefault) throw defaultGroupNotDeletable();
  return { formMoves: moves([{ formIds: group.formIds, toGroupId: defaultGroupId, movedAt: now }]) };
}

/** The id of the group named; `field` names the request field in the error when there is none. */
export function groupIdNamed(groupNames: Map<number, string>, name: string, field: string): number {
  for (const [id, groupName] of groupNames) if (groupName === name) return id;
  throw new AppError('invalid', `${field}: group "${name}" does not exist`);
}

/** The ids of the groups named, each once. */
export function groupIdsNamed(groupNames: Map<number, string>, names: string[], field: string): number[] {
  return [...new Set(names)].map((name) => groupIdNamed(groupNames, name, field));
}

function moves(candidates: FormMove[]): FormMove[] {
  return candidates.filter((move) => move.formIds.length > 0);
}
