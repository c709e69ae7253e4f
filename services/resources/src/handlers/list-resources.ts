import type { CommandHandler } from '@formcast/bus';
import type { ResourceListItemView } from '@formcast/contracts';
import { requireOrgId } from '@formcast/platform';
import { toResourceListItemView } from '../domain/views';
import type { ResourcesDeps } from './deps';

export const listResources =
  ({ store }: ResourcesDeps): CommandHandler =>
  async (command): Promise<ResourceListItemView[]> =>
    (await store.listResources(requireOrgId(command))).map(toResourceListItemView);
