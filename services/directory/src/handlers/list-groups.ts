import type { CommandHandler } from '@formcast/bus';
import { listGroupsPayload, type GroupView } from '@formcast/contracts';
import { parsePayload, requireOrgId } from '@formcast/platform';
import { toGroupView } from '../domain/views';
import type { DirectoryDeps } from './deps';

/**
 * Every group, or (groups v2, group.md) those whose name holds `filter` (any case) and that
 * have any of `tags`, one page of them with `items` or `page` (100 a page by default).
 */
export const listGroups =
  ({ store }: DirectoryDeps): CommandHandler =>
  async (command): Promise<GroupView[]> => {
    const { filter, page, items, tags } = parsePayload(listGroupsPayload, command.payload ?? {});
    const groups = (await store.groups.list(requireOrgId(command))).map(toGroupView);
    const needle = filter?.toLowerCase();
    const wanted = tags && tags.length > 0 ? new Set(tags) : undefined;
    const found = groups.filter(
      (group) => (!needle || group.name.toLowerCase().includes(needle)) && (!wanted || group.tags.some((tag) => wanted.has(tag))),
    );
    if (page === undefined && items === undefined) return found;
    return found.slice(((page ?? 1) - 1) * (items ?? 100), (page ?? 1) * (items ?? 100));
  };
