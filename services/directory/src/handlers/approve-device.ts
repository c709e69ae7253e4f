import type { CommandHandler } from '@formcast/bus';
import { deviceViewPayload, type DeviceV2View, type DeviceView } from '@formcast/contracts';
import { parsePayload, requireOrgId } from '@formcast/platform';
import { toDeviceViewOf } from '../domain/views';
import { announceDeviceChanged } from '../events/announce';
import type { DirectoryDeps } from './deps';

/** A pending device may authenticate from now on. */
export const approveDevice =
  (deps: DirectoryDeps): CommandHandler =>
  async (command): Promise<DeviceView | DeviceV2View> => {
    const orgId = requireOrgId(command);
    const { deviceId, view } = parsePayload(deviceViewPayload, command.payload);
    const device = await deps.store.devices.update(orgId, deviceId, { pendingApproval: false });
    await announceDeviceChanged(deps, device, command.requestId);
    return toDeviceViewOf(view, device, await deps.store.groups.names(orgId));
  };
