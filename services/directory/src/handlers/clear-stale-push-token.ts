import type { CommandHandler } from '@formcast/bus';
import { clearStalePushTokenPayload } from '@formcast/contracts';
import { parsePayload, requireOrgId } from '@formcast/platform';
import type { DirectoryDeps } from './deps';
import { announceDeviceChanged } from './announce';

/** FCM no longer knows this token; keep a newer one the device may have sent meanwhile. */
export const clearStalePushToken =
  (deps: DirectoryDeps): CommandHandler =>
  async (command) => {
    const orgId = requireOrgId(command);
    const { deviceId, pushToken } = parsePayload(clearStalePushTokenPayload, command.payload);
    const device = await deps.store.getDevice(orgId, deviceId);
    if (device?.pushToken !== pushToken) return { cleared: false };
    const updated = await deps.store.updateDevice(orgId, deviceId, { pushToken: null });
    await announceDeviceChanged(deps, updated, command.requestId);
    return { cleared: true };
  };
