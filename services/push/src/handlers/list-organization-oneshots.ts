import type { CommandHandler } from '@formcast/bus';
import { organizationOneshotsPayload, type OutstandingOneshotView } from '@formcast/contracts';
import { parsePayload, requireOrgId } from '@formcast/platform';
import { toOutstandingView } from '../domain/views';
import type { PushDeps } from './deps';

/**
 * GET /organizations/<org>/oneshots: the organization's outstanding ones (spec 2.8), a page
 * at a time (`afterId`, `limit`; `offset` for a client's page), so neither this service nor the gateway ever holds a long
 * list whole; the gateway streams the pages to the client as they come.
 */
export const listOrganizationOneshots =
  (deps: PushDeps): CommandHandler =>
  async (command): Promise<OutstandingOneshotView[]> => {
    const { afterId, offset, limit } = parsePayload(organizationOneshotsPayload, command.payload);
    const views: OutstandingOneshotView[] = [];
    for await (const oneshot of deps.store.streamOutstandingForOrganization(requireOrgId(command), afterId ?? 0, limit, offset ?? 0)) {
      views.push(toOutstandingView(oneshot));
    }
    return views;
  };
