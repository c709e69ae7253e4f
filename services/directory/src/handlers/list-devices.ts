import type { CommandHandler } from '@formcast/bus';
import { listDevicesPayload, type DeviceView } from '@formcast/contracts';
import { parsePayload, requireOrgId } from '@formcast/platform';
import type { DirectoryDeps } from './deps';
import { deviceViews } from './device-views';

export const listDevices =
  ({ store }: DirectoryDeps): CommandHandler =>
  async (command): Promise<DeviceView[]> => {
    const orgId = requireOrgId(command);
    const { approvedOnly } = parsePayload(listDevicesPayload, command.payload ?? {});
    return deviceViews(store, orgId, await store.listDevices(orgId, { approvedOnly }));
  };
