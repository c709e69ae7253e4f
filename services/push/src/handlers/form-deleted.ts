import type { EventHandler } from '@formcast/bus';
import { formDeletedPayload } from '@formcast/contracts';
import { parsePayload } from '@formcast/platform';
import type { PushDeps } from './deps';
import { revokeOutstandingOfForm } from '../revocation/revoke-outstanding';

/**
 * A form was deleted in the directory: what was still outstanding of it is revoked, since no
 * device can submit it any more (push answers 409), under the event's id (the event again
 * revokes nothing more).
 */
export const formDeleted =
  (deps: PushDeps): EventHandler =>
  async (event) => {
    const { orgId, formId } = parsePayload(formDeletedPayload, event.payload);
    await revokeOutstandingOfForm(deps, { orgId, formId, requestId: event.requestId, workId: `form-deleted:${event.id}` });
  };
