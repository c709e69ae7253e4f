import type { CommandHandler } from '@formcast/bus';
import { createGroupsPayload, type CreateGroupsResult } from '@formcast/contracts';
import { parsePayload, requireOrgId } from '@formcast/platform';
import { splitGroupNames } from '../domain/group-rules';
import { toGroupView } from '../domain/views';
import type { DirectoryDeps } from './deps';

/**
 * Creates the groups whose names are new; names that exist already are reported, not
 * duplicated. Run again under the same command id (redelivered, or a keyed request's retry
 * after a crash), it answers what that command did: the groups it created as created (201
 * again, not 304), only the others as existing.
 */
export const createGroups =
  ({ store }: DirectoryDeps): CommandHandler =>
  async (command): Promise<CreateGroupsResult> => {
    const orgId = requireOrgId(command);
    const { names } = parsePayload(createGroupsPayload, command.payload);
    const { fresh, existing } = splitGroupNames((await store.groups.names(orgId)).values(), names);
    const created = await store.groups.create(orgId, fresh, command.id);
    const createdNames = new Set(created.map((group) => group.name));
    return { created: created.map(toGroupView), existing: existing.filter((name) => !createdNames.has(name)) };
  };
