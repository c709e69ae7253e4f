import type { CommandHandler } from '@formcast/bus';
import { authenticateDevicePayload, type AuthenticatedDevice } from '@formcast/contracts';
import { parsePayload } from '@formcast/platform';
import { checkDeviceMayAuthenticate } from '../domain/device-rules';
import { toAuthenticatedDevice } from '../domain/views';
import type { DirectoryDeps } from './deps';

/** Which approved device a device secret (given as its hash) belongs to. */
export const authenticateDevice =
  ({ store }: DirectoryDeps): CommandHandler =>
  async (command): Promise<AuthenticatedDevice> => {
    const { secretHash } = parsePayload(authenticateDevicePayload, command.payload);
    return toAuthenticatedDevice(checkDeviceMayAuthenticate(await store.devices.findBySecretHash(secretHash)));
  };
