import type { CommandHandler } from '@formcast/bus';
import { clearStalePushTokenPayload } from '@formcast/contracts';
import { parsePayload, requireOrgId } from '@formcast/platform';
import type { DirectoryDeps } from './deps';

/** FCM no longer knows this token; keep a newer one the device may have sent meanwhile. */
export const clearStalePushToken =
  ({ store }: DirectoryDeps): CommandHandler =>
  async (command) => {
    const orgId = requireOrgId(command);
    const { deviceId, pushToken } = parsePayload(clearStalePushTokenPayload, command.payload);
    const device = await store.getDevice(orgId, deviceId);
    if (device?.pushToken !== pushToken) return { cleared: false };
    await store.updateDevice(orgId, deviceId, { pushToken: null });
    return { cleared: true };
  };
