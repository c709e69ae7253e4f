import type { CommandHandler } from '@formcast/bus';
import { updateDevicePayload, type DeviceV2View, type DeviceView } from '@formcast/contracts';
import { parsePayload, requireOrgId } from '@formcast/platform';
import { checkCustomAttributes } from '../domain/device-rules';
import { groupIdsNamed } from '../domain/group-rules';
import { toDeviceViewOf } from '../domain/views';
import { announceDeviceChanged } from '../events/announce';
import type { DirectoryDeps } from './deps';

/**
 * Owner, description, groups given by name (replacing the device's groups) and custom
 * attributes (replacing its attributes); announced, as other services cache devices.
 */
export const updateDevice =
  (deps: DirectoryDeps): CommandHandler =>
  async (command): Promise<DeviceView | DeviceV2View> => {
    const orgId = requireOrgId(command);
    const { deviceId, owner, description, groups, custom_attributes, view } = parsePayload(updateDevicePayload, command.payload);
    const customAttributes = custom_attributes === undefined ? undefined : checkCustomAttributes(custom_attributes);
    const groupNames = await deps.store.groups.names(orgId);
    const groupIds = groups === undefined ? undefined : groupIdsNamed(groupNames, groups, 'groups');
    const device = await deps.store.devices.update(orgId, deviceId, { owner, description, groupIds, customAttributes });
    await announceDeviceChanged(deps, device, command.requestId);
    return toDeviceViewOf(view, device, groupNames);
  };
