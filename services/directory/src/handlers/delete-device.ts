import type { CommandHandler } from '@formcast/bus';
import { deviceIdPayload } from '@formcast/contracts';
import { parsePayload, requireOrgId } from '@formcast/platform';
import type { DirectoryDeps } from './deps';
import { announceDeviceChanged } from './announce';

export const deleteDevice =
  (deps: DirectoryDeps): CommandHandler =>
  async (command) => {
    const orgId = requireOrgId(command);
    const { deviceId } = parsePayload(deviceIdPayload, command.payload);
    const device = await deps.store.getDevice(orgId, deviceId);
    await deps.store.deleteDevice(orgId, deviceId);
    if (device) await announceDeviceChanged(deps, device, command.requestId);
    return null;
  };
