import type { CommandHandler } from '@formcast/bus';
import { getGroupPayload, type GroupView } from '@formcast/contracts';
import { AppError, parsePayload, requireOrgId } from '@formcast/platform';
import { toGroupView } from '../domain/views';
import type { DirectoryDeps } from './deps';

/** One of the organization's groups, by id; another organization's, or none, is not_found. */
export const getGroup =
  ({ store }: DirectoryDeps): CommandHandler =>
  async (command): Promise<GroupView> => {
    const { groupId } = parsePayload(getGroupPayload, command.payload);
    const group = await store.groups.get(requireOrgId(command), groupId);
    if (!group) throw new AppError('not_found', `Group ${groupId} does not exist`);
    return toGroupView(group);
  };
