import type { CommandHandler } from '@formcast/bus';
import { authenticateDevicePayload, type AuthenticatedDevice } from '@formcast/contracts';
import { AppError, parsePayload } from '@formcast/platform';
import type { DirectoryDeps } from './deps';

/** Which approved device a device secret (given as its hash) belongs to. */
export const authenticateDevice =
  ({ store }: DirectoryDeps): CommandHandler =>
  async (command): Promise<AuthenticatedDevice> => {
    const { secretHash } = parsePayload(authenticateDevicePayload, command.payload);
    const device = await store.findDeviceBySecretHash(secretHash);
    if (!device) throw new AppError('unauthorized', 'Invalid device secret');
    if (device.pendingApproval) throw new AppError('forbidden', 'This device is waiting for approval');
    return { deviceId: device.id, orgId: device.orgId, identifier: device.identifier };
  };
