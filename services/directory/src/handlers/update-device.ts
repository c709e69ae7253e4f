import type { CommandHandler } from '@formcast/bus';
import { updateDevicePayload, type DeviceView } from '@formcast/contracts';
import { AppError, parsePayload, requireOrgId } from '@formcast/platform';
import type { DirectoryDeps } from './deps';
import { deviceView } from './device-views';

/** Owner, description, and groups given by name (replacing the device's groups). */
export const updateDevice =
  ({ store }: DirectoryDeps): CommandHandler =>
  async (command): Promise<DeviceView> => {
    const orgId = requireOrgId(command);
    const { deviceId, owner, description, groups } = parsePayload(updateDevicePayload, command.payload);
    let groupIds: number[] | undefined;
    if (groups !== undefined) {
      const byName = new Map((await store.listGroups(orgId)).map((g) => [g.name, g.id]));
      groupIds = [...new Set(groups)].map((name) => {
        const id = byName.get(name);
        if (id === undefined) throw new AppError('invalid', `groups: group "${name}" does not exist`);
        return id;
      });
    }
    const device = await store.updateDevice(orgId, deviceId, { owner, description, groupIds });
    return deviceView(store, device);
  };
