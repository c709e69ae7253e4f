import type { CommandHandler } from '@formcast/bus';
import { groupIdPayload } from '@formcast/contracts';
import { parsePayload, requireOrgId } from '@formcast/platform';
import { planGroupDeletion } from '../domain/group-rules';
import type { DirectoryDeps } from './deps';

/** Its forms go back to Default and its memberships end; the Default group itself stays. */
export const deleteGroup =
  ({ store }: DirectoryDeps): CommandHandler =>
  async (command) => {
    const orgId = requireOrgId(command);
    const { groupId } = parsePayload(groupIdPayload, command.payload);
    // Read before the transaction: an organization's Default group never changes.
    const defaultGroupId = await store.groups.defaultGroupId(orgId);
    const now = new Date().toISOString();
    await store.groups.delete(orgId, groupId, (group) => planGroupDeletion(group, defaultGroupId, now));
    return null;
  };
