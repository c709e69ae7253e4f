import type { EventHandler } from '@formcast/bus';
import { deviceDeletedPayload } from '@formcast/contracts';
import { parsePayload } from '@formcast/platform';
import type { PushDeps } from './deps';
import { revokeEveryOutstanding } from '../revocation/revoke-outstanding';

/**
 * A device was deleted in the directory: what was still outstanding on it is revoked, as a
 * destroy_all would, so the organization's listings and caps stop counting tasks no device
 * can ever complete. No notification goes (the device is gone). Under the event's id: the
 * event again finds it done.
 */
export const deviceDeleted =
  (deps: PushDeps): EventHandler =>
  async (event) => {
    const { orgId, deviceId } = parsePayload(deviceDeletedPayload, event.payload);
    await revokeEveryOutstanding(deps, { orgId, deviceId, pushToken: null, requestId: event.requestId, workId: `device-deleted:${event.id}` });
  };
