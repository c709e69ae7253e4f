import type { CommandHandler } from '@formcast/bus';
import { deviceIdPayload, type DeviceView } from '@formcast/contracts';
import { parsePayload, requireOrgId } from '@formcast/platform';
import type { DirectoryDeps } from './deps';
import { deviceView } from './device-views';

export const approveDevice =
  ({ store }: DirectoryDeps): CommandHandler =>
  async (command): Promise<DeviceView> => {
    const orgId = requireOrgId(command);
    const { deviceId } = parsePayload(deviceIdPayload, command.payload);
    return deviceView(store, await store.approveDevice(orgId, deviceId));
  };
