import type { CommandHandler } from '@formcast/bus';
import { deviceOneshotsPayload, pushEvents } from '@formcast/contracts';
import { parsePayload, requireOrgId } from '@formcast/platform';
import { approvedDevice } from '../directory-cache/approved-device';
import { oneshotEvent } from '../domain/oneshot-events';
import { revokedOneshots } from '../domain/oneshot-lifecycle';
import { tracedStoreWrite } from '../outbox/traced-store-write';
import type { PushDeps } from './deps';

/** POST /clients/<device>/oneshots/destroy_all: every outstanding one revoked, an event each. */
export const revokeAllOneshots =
  ({ store, directory, eventsWritten }: PushDeps): CommandHandler =>
  async (command) => {
    const { deviceRef } = parsePayload(deviceOneshotsPayload, command.payload);
    const device = await approvedDevice(directory, command, deviceRef);
    const now = new Date().toISOString();
    const revoked = await tracedStoreWrite('revoke-all', (carryTrace) =>
      store.changeOutstanding(
        requireOrgId(command),
        device.id,
        (outstanding) => revokedOneshots(outstanding, device.id, now),
        carryTrace(oneshotEvent(pushEvents.oneshotRevoked, device.pushToken, command.requestId)),
        command.id,
      ),
    );
    eventsWritten();
    return { revoked: revoked.length };
  };
