import type { CommandHandler } from '@formcast/bus';
import { deviceViewPayload, type DeviceV2View, type DeviceView } from '@formcast/contracts';
import { parsePayload, requireOrgId } from '@formcast/platform';
import { deviceNotFound } from '../domain/errors';
import { toDeviceViewOf } from '../domain/views';
import type { DirectoryDeps } from './deps';

export const getDevice =
  ({ store }: DirectoryDeps): CommandHandler =>
  async (command): Promise<DeviceView | DeviceV2View> => {
    const orgId = requireOrgId(command);
    const { deviceId, view } = parsePayload(deviceViewPayload, command.payload);
    const device = await store.devices.get(orgId, deviceId);
    if (!device) throw deviceNotFound(deviceId);
    return toDeviceViewOf(view, device, await store.groups.names(orgId));
  };
