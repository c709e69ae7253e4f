import type { CommandHandler } from '@formcast/bus';
import { deviceIdPayload } from '@formcast/contracts';
import { parsePayload, requireOrgId } from '@formcast/platform';
import { announceDeviceChanged, announceDeviceDeleted } from '../events/announce';
import type { DirectoryDeps } from './deps';

export const deleteDevice =
  (deps: DirectoryDeps): CommandHandler =>
  async (command) => {
    const { deviceId } = parsePayload(deviceIdPayload, command.payload);
    const device = await deps.store.devices.delete(requireOrgId(command), deviceId);
    await announceDeviceChanged(deps, device, command.requestId);
    await announceDeviceDeleted(deps, device, command.requestId);
    return null;
  };
