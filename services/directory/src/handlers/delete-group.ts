import type { CommandHandler } from '@formcast/bus';
import { groupIdPayload } from '@formcast/contracts';
import { parsePayload, requireOrgId } from '@formcast/platform';
import type { DirectoryDeps } from './deps';

export const deleteGroup =
  ({ store }: DirectoryDeps): CommandHandler =>
  async (command) => {
    const orgId = requireOrgId(command);
    const { groupId } = parsePayload(groupIdPayload, command.payload);
    await store.deleteGroup(orgId, groupId);
    return null;
  };
