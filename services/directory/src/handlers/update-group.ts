import type { CommandHandler } from '@formcast/bus';
import { updateGroupPayload, type GroupView } from '@formcast/contracts';
import { parsePayload, requireOrgId } from '@formcast/platform';
import { planGroupUpdate } from '../domain/group-rules';
import { toGroupView } from '../domain/views';
import type { DirectoryDeps } from './deps';

/** A new name, and the group's forms and devices replaced (see planGroupUpdate). */
export const updateGroup =
  ({ store }: DirectoryDeps): CommandHandler =>
  async (command): Promise<GroupView> => {
    const orgId = requireOrgId(command);
    const { groupId, ...patch } = parsePayload(updateGroupPayload, command.payload);
    // Read before the transaction: an organization's Default group never changes.
    const defaultGroupId = await store.groups.defaultGroupId(orgId);
    const now = new Date().toISOString();
    return toGroupView(await store.groups.update(orgId, groupId, (group) => planGroupUpdate(group, patch, defaultGroupId, now)));
  };
