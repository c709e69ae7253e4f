import type { CommandHandler } from '@formcast/bus';
import type { OutstandingOneshotView } from '@formcast/contracts';
import { requireOrgId } from '@formcast/platform';
import { toOutstandingView } from '../domain/views';
import type { PushDeps } from './deps';

/** GET /organizations/<org>/oneshots: every outstanding one of the organization (spec 2.8). */
export const listOrganizationOneshots =
  (deps: PushDeps): CommandHandler =>
  async (command): Promise<OutstandingOneshotView[]> => {
    const views: OutstandingOneshotView[] = [];
    for await (const oneshot of deps.store.streamOutstandingForOrganization(requireOrgId(command))) {
      views.push(toOutstandingView(oneshot));
    }
    return views;
  };
