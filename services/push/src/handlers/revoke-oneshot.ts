import type { CommandHandler } from '@formcast/bus';
import { deviceOneshotPayload, pushEvents } from '@formcast/contracts';
import { parsePayload, requireOrgId } from '@formcast/platform';
import { approvedDevice } from '../directory-cache/approved-device';
import { oneshotEvent } from '../domain/oneshot-events';
import { revokedOneshot } from '../domain/oneshot-lifecycle';
import { tracedStoreWrite } from '../outbox/traced-store-write';
import type { PushDeps } from './deps';

/** DELETE /clients/<device>/oneshots/<id>: outstanding → revoked. */
export const revokeOneshot =
  ({ store, directory, eventsWritten }: PushDeps): CommandHandler =>
  async (command) => {
    const { deviceRef, oneshotId } = parsePayload(deviceOneshotPayload, command.payload);
    const device = await approvedDevice(directory, command, deviceRef);
    const now = new Date().toISOString();
    await tracedStoreWrite('revoke', (carryTrace) =>
      store.change(
        requireOrgId(command),
        oneshotId,
        (current) => revokedOneshot(current, { oneshotId, deviceId: device.id }, now),
        carryTrace(oneshotEvent(pushEvents.oneshotRevoked, device.pushToken, command.requestId)),
        command.id,
      ),
    );
    eventsWritten();
    return null;
  };
