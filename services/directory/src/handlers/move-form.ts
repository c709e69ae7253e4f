import type { CommandHandler } from '@formcast/bus';
import { moveFormPayload, type FormListItemView } from '@formcast/contracts';
import { parsePayload, requireOrgId } from '@formcast/platform';
import { groupIdNamed } from '../domain/group-rules';
import { toFormListItemView } from '../domain/views';
import { announceFormChanged } from '../events/announce';
import type { DirectoryDeps } from './deps';

/** `POST /forms/<id>/properties {"group": "<name>"}`: the form moves to the named group; announced, as other services cache it. */
export const moveForm =
  (deps: DirectoryDeps): CommandHandler =>
  async (command): Promise<FormListItemView> => {
    const orgId = requireOrgId(command);
    const { formId, group } = parsePayload(moveFormPayload, command.payload);
    const groupNames = await deps.store.groups.names(orgId);
    const groupId = groupIdNamed(groupNames, group, 'group');
    const form = await deps.store.forms.move(orgId, formId, groupId, new Date().toISOString());
    await announceFormChanged(deps, form, command.requestId);
    return toFormListItemView(form, groupNames);
  };
