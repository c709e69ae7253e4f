import type { CommandHandler } from '@formcast/bus';
import { deviceOneshotPayload, pushEvents } from '@formcast/contracts';
import { parsePayload, requireOrgId } from '@formcast/platform';
import { approvedDevice } from '../directory-cache/approved-device';
import { oneshotEvent } from '../domain/oneshot-events';
import { revokedOneshot } from '../domain/oneshot-lifecycle';
import type { PushDeps } from './deps';

/** DELETE /clients/<device>/oneshots/<id>: outstanding → revoked. */
export const revokeOneshot =
  ({ store, directory, eventsWritten }: PushDeps): CommandHandler =>
  async (command) => {
    const { deviceRef, oneshotId } = parsePayload(deviceOneshotPayload, command.payload);
    const device = await approvedDevice(directory, command, deviceRef);
    const now = new Date().toISOString();
    await store.change(
      requireOrgId(command),
      oneshotId,
      (current) => revokedOneshot(current, { oneshotId, deviceId: device.id }, now),
      oneshotEvent(pushEvents.oneshotRevoked, device.pushToken, command.requestId),
      command.id,
    );
    eventsWritten();
    return null;
  };
