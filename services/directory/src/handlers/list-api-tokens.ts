import type { CommandHandler } from '@formcast/bus';
import { requireOrgId } from '@formcast/platform';
import { organizationNotFound } from '../domain/errors';
import { toApiTokenView } from '../domain/views';
import type { DirectoryDeps } from './deps';

export const listApiTokens =
  ({ store }: DirectoryDeps): CommandHandler =>
  async (command) => {
    const orgId = requireOrgId(command);
    if (!(await store.organizations.get(orgId))) throw organizationNotFound(orgId);
    return (await store.organizations.listTokens(orgId)).map(toApiTokenView);
  };
