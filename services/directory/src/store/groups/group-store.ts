import type { Group, GroupChange, GroupDeletion } from '../../domain/records';

/**
 * Groups, with their members: a group's forms are the forms in it, its devices those that
 * are its members (see `DirectoryStore` for the errors every part throws).
 */
export interface GroupStore {
  /** Ascending by id; Default first as it is created first. */
  list(orgId: number): Promise<Group[]>;
  /** The organization's group names by id, without their members (device views need only these). */
  names(orgId: number): Promise<Map<number, string>>;
  get(orgId: number, groupId: number): Promise<Group | null>;
  findByName(orgId: number, name: string): Promise<Group | null>;
  /** The id of the organization's Default group; unknown organization: 'not_found'. */
  defaultGroupId(orgId: number): Promise<number>;
  /**
   * Ordinary groups with these names; a name the organization has already: 'conflict',
   * nothing created. `commandId` is the create's command: one already applied under it (a
   * command delivered twice, or a keyed request run again after a crash) answers the groups
   * it created (those still there), whatever `names` are now, creating nothing. No names and
   * no create applied: nothing created, nothing recorded. Command ids are remembered for
   * `appliedCommandWindowMs` (24 h).
   */
  create(orgId: number, names: string[], commandId: string): Promise<Group[]>;
  /**
   * Saves what `decide` makes of the group, in one transaction: a new name (taken: 'conflict'),
   * forms moved (ids the organization lacks: 'invalid'), its devices replaced (ids the
   * organization lacks: 'invalid'). Nothing changes when anything throws, `decide` included.
   */
  update(orgId: number, groupId: number, decide: (group: Group) => GroupChange): Promise<Group>;
  /** Moves the forms `decide` says, ends the group's memberships and deletes it, in one transaction. */
  delete(orgId: number, groupId: number, decide: (group: Group) => GroupDeletion): Promise<void>;
}
