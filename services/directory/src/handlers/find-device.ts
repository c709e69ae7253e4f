import type { CommandHandler } from '@formcast/bus';
import { findDevicePayload, type DeviceView } from '@formcast/contracts';
import { AppError, parsePayload, requireOrgId } from '@formcast/platform';
import type { DirectoryDeps } from './deps';
import { deviceView, findDeviceByRef } from './device-views';

/** A device as the API shows it, by identifier or numeric id (`/clients/<device>/…` paths). */
export const findDevice =
  ({ store }: DirectoryDeps): CommandHandler =>
  async (command): Promise<DeviceView> => {
    const orgId = requireOrgId(command);
    const { ref } = parsePayload(findDevicePayload, command.payload);
    const device = await findDeviceByRef(store, orgId, ref);
    if (!device) throw new AppError('not_found', `Device ${ref} does not exist`);
    return deviceView(store, device);
  };
