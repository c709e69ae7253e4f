import type { CommandHandler } from '@formcast/bus';
import { setDevicePushTokenPayload } from '@formcast/contracts';
import { parsePayload, requireOrgId } from '@formcast/platform';
import { announceDeviceChanged } from '../events/announce';
import type { DirectoryDeps } from './deps';

/** A device registers (or drops, with null) its FCM registration token. */
export const setDevicePushToken =
  (deps: DirectoryDeps): CommandHandler =>
  async (command) => {
    const orgId = requireOrgId(command);
    const { deviceId, pushToken } = parsePayload(setDevicePushTokenPayload, command.payload);
    const device = await deps.store.devices.update(orgId, deviceId, { pushToken });
    await announceDeviceChanged(deps, device, command.requestId);
    return null;
  };
