import type { CommandHandler } from '@formcast/bus';
import { createGroupsPayload, type CreateGroupsResult } from '@formcast/contracts';
import { parsePayload, requireOrgId } from '@formcast/platform';
import { splitGroupNames } from '../domain/group-rules';
import { toGroupView } from '../domain/views';
import type { DirectoryDeps } from './deps';

/** Creates the groups whose names are new; names that exist already are reported, not duplicated. */
export const createGroups =
  ({ store }: DirectoryDeps): CommandHandler =>
  async (command): Promise<CreateGroupsResult> => {
    const orgId = requireOrgId(command);
    const { names } = parsePayload(createGroupsPayload, command.payload);
    const { fresh, existing } = splitGroupNames((await store.groups.names(orgId)).values(), names);
    const created = fresh.length > 0 ? await store.groups.create(orgId, fresh) : [];
    return { created: created.map(toGroupView), existing };
  };
