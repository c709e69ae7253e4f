import type { CommandHandler } from '@formcast/bus';
import { reportDeviceVersionsPayload, type DeviceVersionsView } from '@formcast/contracts';
import { parsePayload, requireOrgId } from '@formcast/platform';
import { reportedVersionsChange } from '../domain/device-rules';
import { toDeviceVersionsView } from '../domain/views';
import type { DirectoryDeps } from './deps';

/**
 * A device reports its OS and app versions. Not announced: no other service caches them
 * (a ResolvedDevice carries none).
 */
export const reportDeviceVersions =
  ({ store }: DirectoryDeps): CommandHandler =>
  async (command): Promise<DeviceVersionsView> => {
    const orgId = requireOrgId(command);
    const { deviceId, ...report } = parsePayload(reportDeviceVersionsPayload, command.payload);
    const device = await store.devices.update(orgId, deviceId, reportedVersionsChange(report));
    return toDeviceVersionsView(device);
  };
