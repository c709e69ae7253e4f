import type { CommandHandler } from '@formcast/bus';
import type { FormListItemView } from '@formcast/contracts';
import { requireOrgId } from '@formcast/platform';
import { toFormListItemView } from '../domain/views';
import type { DirectoryDeps } from './deps';

export const listForms =
  ({ store }: DirectoryDeps): CommandHandler =>
  async (command): Promise<FormListItemView[]> => {
    const orgId = requireOrgId(command);
    const [forms, groupNames] = await Promise.all([store.forms.list(orgId), store.groups.names(orgId)]);
    return forms.map((form) => toFormListItemView(form, groupNames));
  };
