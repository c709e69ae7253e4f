import type { CommandHandler } from '@formcast/bus';
import { AppError, requireOrgId } from '@formcast/platform';
import { toApiTokenView } from '../domain/views';
import type { DirectoryDeps } from './deps';

export const listApiTokens =
  ({ store }: DirectoryDeps): CommandHandler =>
  async (command) => {
    const orgId = requireOrgId(command);
    if (!(await store.getOrganization(orgId))) throw new AppError('not_found', `Organization ${orgId} does not exist`);
    return (await store.listApiTokens(orgId)).map(toApiTokenView);
  };
