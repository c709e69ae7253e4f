import type { CommandHandler } from '@formcast/bus';
import type { FormListItemView } from '@formcast/contracts';
import { requireOrgId } from '@formcast/platform';
import { groupNameIndex, toFormListItemView } from '../domain/views';
import type { DirectoryDeps } from './deps';

export const listForms =
  ({ store }: DirectoryDeps): CommandHandler =>
  async (command): Promise<FormListItemView[]> => {
    const orgId = requireOrgId(command);
    const [forms, groups] = await Promise.all([store.listForms(orgId), store.listGroups(orgId)]);
    const names = groupNameIndex(groups);
    return forms.map((form) => toFormListItemView(form, names));
  };
