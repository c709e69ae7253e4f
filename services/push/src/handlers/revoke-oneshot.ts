import type { CommandHandler } from '@formcast/bus';
import { deviceOneshotPayload, pushEvents } from '@formcast/contracts';
import { parsePayload, requireOrgId } from '@formcast/platform';
import { oneshotEvent } from '../domain/oneshot-events';
import { approvedDevice } from './approved-device';
import type { PushDeps } from './deps';

/** DELETE /clients/<device>/oneshots/<id>: outstanding → revoked. */
export const revokeOneshot =
  (deps: PushDeps): CommandHandler =>
  async (command) => {
    const { deviceRef, oneshotId } = parsePayload(deviceOneshotPayload, command.payload);
    const device = await approvedDevice(deps, command, deviceRef);
    await deps.store.revoke(
      requireOrgId(command),
      device.id,
      oneshotId,
      oneshotEvent(pushEvents.oneshotRevoked, device.pushToken, command.requestId),
      command.id,
    );
    deps.eventsWritten();
    return null;
  };
