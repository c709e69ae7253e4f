import type { CommandHandler } from '@formcast/bus';
import { resolveDevicePayload, type ResolvedDevice } from '@formcast/contracts';
import { AppError, parsePayload, requireOrgId } from '@formcast/platform';
import type { DirectoryDeps } from './deps';
import { findDeviceByRef } from './device-views';

/** For other services: a device by identifier or numeric id, with its push token. */
export const resolveDevice =
  ({ store }: DirectoryDeps): CommandHandler =>
  async (command): Promise<ResolvedDevice> => {
    const orgId = requireOrgId(command);
    const { ref } = parsePayload(resolveDevicePayload, command.payload);
    const device = await findDeviceByRef(store, orgId, ref);
    if (!device) throw new AppError('not_found', `Device ${ref} does not exist`);
    return {
      id: device.id,
      orgId: device.orgId,
      identifier: device.identifier,
      pendingApproval: device.pendingApproval,
      pushToken: device.pushToken,
    };
  };
