import type { CommandHandler } from '@formcast/bus';
import { findDevicePayload, type DeviceView, type DeviceWithPushTokenPresenceView } from '@formcast/contracts';
import { parsePayload, requireOrgId } from '@formcast/platform';
import { toDeviceView, toDeviceWithPushTokenPresenceView } from '../domain/views';
import { findDeviceByRef } from '../store/devices/find-device-by-ref';
import type { DirectoryDeps } from './deps';

/**
 * A device as the API shows it, by identifier or numeric id (`/clients/<device>/…` paths),
 * with whether it has a push token when asked (the badge endpoint).
 */
export const findDevice =
  ({ store }: DirectoryDeps): CommandHandler =>
  async (command): Promise<DeviceView | DeviceWithPushTokenPresenceView> => {
    const orgId = requireOrgId(command);
    const { ref, includePushTokenPresent } = parsePayload(findDevicePayload, command.payload);
    const device = await findDeviceByRef(store.devices, orgId, ref);
    const groupNames = await store.groups.names(orgId);
    return includePushTokenPresent ? toDeviceWithPushTokenPresenceView(device, groupNames) : toDeviceView(device, groupNames);
  };
