import type { CommandHandler } from '@formcast/bus';
import { setDevicePushTokenPayload } from '@formcast/contracts';
import { parsePayload, requireOrgId } from '@formcast/platform';
import type { DirectoryDeps } from './deps';

/** A device registers (or drops, with null) its FCM registration token. */
export const setDevicePushToken =
  ({ store }: DirectoryDeps): CommandHandler =>
  async (command) => {
    const orgId = requireOrgId(command);
    const { deviceId, pushToken } = parsePayload(setDevicePushTokenPayload, command.payload);
    await store.updateDevice(orgId, deviceId, { pushToken });
    return null;
  };
