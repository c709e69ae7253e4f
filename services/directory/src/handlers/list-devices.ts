import type { CommandHandler } from '@formcast/bus';
import { listDevicesPayload, type DeviceV2View, type DeviceView } from '@formcast/contracts';
import { parsePayload, requireOrgId } from '@formcast/platform';
import { toDeviceViewOf } from '../domain/views';
import type { DirectoryDeps } from './deps';

/** Approved devices only, unless the payload asks for pending ones too; one page of them when `page` or `items` is given (100 a page by default). */
export const listDevices =
  ({ store }: DirectoryDeps): CommandHandler =>
  async (command): Promise<(DeviceView | DeviceV2View)[]> => {
    const orgId = requireOrgId(command);
    const { approvedOnly, view, page, items } = parsePayload(listDevicesPayload, command.payload ?? {});
    const [devices, groupNames] = await Promise.all([store.devices.list(orgId, { approvedOnly }), store.groups.names(orgId)]);
    const paged = page === undefined && items === undefined ? devices : devices.slice(((page ?? 1) - 1) * (items ?? 100), (page ?? 1) * (items ?? 100));
    return paged.map((device) => toDeviceViewOf(view, device, groupNames));
  };
