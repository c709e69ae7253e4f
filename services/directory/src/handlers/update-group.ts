import type { CommandHandler } from '@formcast/bus';
import { updateGroupPayload, type GroupView } from '@formcast/contracts';
import { parsePayload, requireOrgId } from '@formcast/platform';
import { toGroupView } from '../domain/views';
import type { DirectoryDeps } from './deps';

export const updateGroup =
  ({ store }: DirectoryDeps): CommandHandler =>
  async (command): Promise<GroupView> => {
    const orgId = requireOrgId(command);
    const { groupId, ...patch } = parsePayload(updateGroupPayload, command.payload);
    return toGroupView(await store.updateGroup(orgId, groupId, patch));
  };
