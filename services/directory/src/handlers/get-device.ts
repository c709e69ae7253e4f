import type { CommandHandler } from '@formcast/bus';
import { deviceIdPayload, type DeviceView } from '@formcast/contracts';
import { AppError, parsePayload, requireOrgId } from '@formcast/platform';
import type { DirectoryDeps } from './deps';
import { deviceView } from './device-views';

export const getDevice =
  ({ store }: DirectoryDeps): CommandHandler =>
  async (command): Promise<DeviceView> => {
    const orgId = requireOrgId(command);
    const { deviceId } = parsePayload(deviceIdPayload, command.payload);
    const device = await store.getDevice(orgId, deviceId);
    if (!device) throw new AppError('not_found', `Device ${deviceId} does not exist`);
    return deviceView(store, device);
  };
