import type { CommandHandler } from '@formcast/bus';
import { pushEvents, revokeDispatchPayload } from '@formcast/contracts';
import { parsePayload, requireOrgId } from '@formcast/platform';
import { devicePushToken } from '../directory-cache/device-push-token';
import { oneshotEvent } from '../domain/oneshot-events';
import { existingDispatch, revokedDispatch } from '../domain/oneshot-lifecycle';
import { tracedStoreWrite } from '../outbox/traced-store-write';
import { nowOf, type PushDeps } from './deps';

/**
 * DELETE /api/v3/dispatches/<id>: outstanding → revoked, by id alone. Its device is read
 * first for the push token of the event (none when the device is gone: the badge still
 * comes down); the write decides again. An unreleased one is revoked without an event.
 */
export const revokeDispatch =
  (deps: PushDeps): CommandHandler =>
  async (command) => {
    const orgId = requireOrgId(command);
    const { dispatchId } = parsePayload(revokeDispatchPayload, command.payload);
    const current = existingDispatch(await deps.store.get(orgId, dispatchId), dispatchId);
    const pushToken = await devicePushToken(deps.directory, orgId, current.deviceId, command.requestId);
    const now = nowOf(deps);
    await tracedStoreWrite('revoke', (carryTrace) =>
      deps.store.change(
        orgId,
        dispatchId,
        (loaded) => revokedDispatch(loaded, dispatchId, now),
        carryTrace(oneshotEvent(pushEvents.oneshotRevoked, pushToken, command.requestId)),
        command.id,
      ),
    );
    deps.eventsWritten();
    return null;
  };
