import type { CommandHandler } from '@formcast/bus';
import { clearStalePushTokenPayload } from '@formcast/contracts';
import { parsePayload, requireOrgId } from '@formcast/platform';
import { announceDeviceChanged } from '../events/announce';
import type { DirectoryDeps } from './deps';

/** FCM no longer knows this token; keep a newer one the device may have sent meanwhile. */
export const clearStalePushToken =
  (deps: DirectoryDeps): CommandHandler =>
  async (command) => {
    const orgId = requireOrgId(command);
    const { deviceId, pushToken } = parsePayload(clearStalePushTokenPayload, command.payload);
    const updated = await deps.store.devices.clearPushTokenIf(orgId, deviceId, pushToken);
    if (!updated) return { cleared: false };
    await announceDeviceChanged(deps, updated, command.requestId);
    return { cleared: true };
  };
