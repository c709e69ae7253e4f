import type { CommandHandler } from '@formcast/bus';
import { deviceOneshotsPayload } from '@formcast/contracts';
import { parsePayload, requireOrgId } from '@formcast/platform';
import { approvedDevice } from '../directory-cache/approved-device';
import type { PushDeps } from './deps';
import { revokeEveryOutstanding } from '../revocation/revoke-outstanding';

/** POST /clients/<device>/oneshots/destroy_all: every outstanding one revoked, an event each, under the command's id. */
export const revokeAllOneshots =
  (deps: PushDeps): CommandHandler =>
  async (command) => {
    const { deviceRef } = parsePayload(deviceOneshotsPayload, command.payload);
    const device = await approvedDevice(deps.directory, command, deviceRef);
    const revoked = await revokeEveryOutstanding(deps, {
      orgId: requireOrgId(command),
      deviceId: device.id,
      pushToken: device.pushToken,
      requestId: command.requestId,
      workId: command.id,
    });
    return { revoked };
  };
