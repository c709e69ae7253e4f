import type { CommandHandler } from '@formcast/bus';
import { deviceIdPayload, type DeviceView } from '@formcast/contracts';
import { parsePayload, requireOrgId } from '@formcast/platform';
import type { DirectoryDeps } from './deps';
import { deviceView } from './device-views';
import { announceDeviceChanged } from './announce';

export const approveDevice =
  (deps: DirectoryDeps): CommandHandler =>
  async (command): Promise<DeviceView> => {
    const orgId = requireOrgId(command);
    const { deviceId } = parsePayload(deviceIdPayload, command.payload);
    const device = await deps.store.approveDevice(orgId, deviceId);
    await announceDeviceChanged(deps, device, command.requestId);
    return deviceView(deps.store, device);
  };
