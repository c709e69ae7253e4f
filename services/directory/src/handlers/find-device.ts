import type { CommandHandler } from '@formcast/bus';
import { findDevicePayload, type DeviceView } from '@formcast/contracts';
import { AppError, parsePayload, requireOrgId } from '@formcast/platform';
import type { DirectoryDeps } from './deps';
import { deviceView } from './device-views';

/** `/clients/<device>/…` names a device by identifier or, as later API versions allow, by id. */
export const findDevice =
  ({ store }: DirectoryDeps): CommandHandler =>
  async (command): Promise<DeviceView> => {
    const orgId = requireOrgId(command);
    const { ref } = parsePayload(findDevicePayload, command.payload);
    const device = /^[1-9][0-9]{0,14}$/.test(ref)
      ? await store.getDevice(orgId, Number(ref))
      : await store.findDeviceByIdentifier(orgId, ref);
    if (!device) throw new AppError('not_found', `Device ${ref} does not exist`);
    return deviceView(store, device);
  };
