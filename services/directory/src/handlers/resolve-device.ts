import type { CommandHandler } from '@formcast/bus';
import { resolveDevicePayload, type ResolvedDevice } from '@formcast/contracts';
import { parsePayload, requireOrgId } from '@formcast/platform';
import { toResolvedDevice } from '../domain/views';
import { findDeviceByRef } from '../store/devices/find-device-by-ref';
import type { DirectoryDeps } from './deps';

/** For other services: a device by identifier or numeric id, with its push token. */
export const resolveDevice =
  ({ store }: DirectoryDeps): CommandHandler =>
  async (command): Promise<ResolvedDevice> => {
    const { ref } = parsePayload(resolveDevicePayload, command.payload);
    return toResolvedDevice(await findDeviceByRef(store.devices, requireOrgId(command), ref));
  };
