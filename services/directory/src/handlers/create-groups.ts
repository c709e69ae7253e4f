import type { CommandHandler } from '@formcast/bus';
import { createGroupsPayload, type CreateGroupsResult } from '@formcast/contracts';
import { parsePayload, requireOrgId } from '@formcast/platform';
import { toGroupView } from '../domain/views';
import type { DirectoryDeps } from './deps';

/** Creates the groups whose names are new; names that exist already are reported, not duplicated. */
export const createGroups =
  ({ store }: DirectoryDeps): CommandHandler =>
  async (command): Promise<CreateGroupsResult> => {
    const orgId = requireOrgId(command);
    const { names } = parsePayload(createGroupsPayload, command.payload);
    const existingNames = new Set((await store.listGroups(orgId)).map((g) => g.name));
    const unique = [...new Set(names)];
    const existing = unique.filter((name) => existingNames.has(name));
    const fresh = unique.filter((name) => !existingNames.has(name));
    const created = fresh.length > 0 ? await store.createGroups(orgId, fresh) : [];
    return { created: created.map(toGroupView), existing };
  };
