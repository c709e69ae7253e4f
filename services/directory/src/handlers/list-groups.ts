import type { CommandHandler } from '@formcast/bus';
import type { GroupView } from '@formcast/contracts';
import { requireOrgId } from '@formcast/platform';
import { toGroupView } from '../domain/views';
import type { DirectoryDeps } from './deps';

export const listGroups =
  ({ store }: DirectoryDeps): CommandHandler =>
  async (command): Promise<GroupView[]> =>
    (await store.groups.list(requireOrgId(command))).map(toGroupView);
