import type { CommandHandler } from '@formcast/bus';
import { deviceOneshotsPayload, pushEvents } from '@formcast/contracts';
import { parsePayload, requireOrgId } from '@formcast/platform';
import { oneshotEvent } from '../domain/oneshot-events';
import { approvedDevice } from './approved-device';
import type { PushDeps } from './deps';

/** POST /clients/<device>/oneshots/destroy_all: every outstanding one revoked, an event each. */
export const revokeAllOneshots =
  (deps: PushDeps): CommandHandler =>
  async (command) => {
    const { deviceRef } = parsePayload(deviceOneshotsPayload, command.payload);
    const device = await approvedDevice(deps, command, deviceRef);
    const revoked = await deps.store.revokeAll(
      requireOrgId(command),
      device.id,
      oneshotEvent(pushEvents.oneshotRevoked, device.pushToken, command.requestId),
      command.id,
    );
    deps.eventsWritten();
    return { revoked: revoked.length };
  };
