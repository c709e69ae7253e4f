import type { CommandHandler } from '@formcast/bus';
import { moveFormPayload, type FormListItemView } from '@formcast/contracts';
import { AppError, parsePayload, requireOrgId } from '@formcast/platform';
import { groupNameIndex, toFormListItemView } from '../domain/views';
import type { DirectoryDeps } from './deps';

/** `POST /forms/<id>/properties {"group": "<name>"}`: the form moves to the named group. */
export const moveForm =
  ({ store }: DirectoryDeps): CommandHandler =>
  async (command): Promise<FormListItemView> => {
    const orgId = requireOrgId(command);
    const { formId, group: groupName } = parsePayload(moveFormPayload, command.payload);
    const group = await store.findGroupByName(orgId, groupName);
    if (!group) throw new AppError('invalid', `group: group "${groupName}" does not exist`);
    const form = await store.moveForm(orgId, formId, group.id);
    return toFormListItemView(form, groupNameIndex(await store.listGroups(orgId)));
  };
