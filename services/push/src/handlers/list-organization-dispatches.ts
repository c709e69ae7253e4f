import type { CommandHandler } from '@formcast/bus';
import { listOrganizationDispatchesPayload, type DispatchPageView } from '@formcast/contracts';
import { parsePayload, requireOrgId } from '@formcast/platform';
import { toDispatchPageView } from '../domain/views';
import type { PushDeps } from './deps';

/** GET /api/v3/organization_dispatches: the organization's outstanding dispatches, scheduled ones included, a page. */
export const listOrganizationDispatches =
  ({ store }: PushDeps): CommandHandler =>
  async (command): Promise<DispatchPageView> => {
    const orgId = requireOrgId(command);
    const { page, items } = parsePayload(listOrganizationDispatchesPayload, command.payload);
    return toDispatchPageView(await store.listDispatches(orgId, null, (page - 1) * items, items), page, items);
  };
