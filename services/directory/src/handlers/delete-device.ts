import type { CommandHandler } from '@formcast/bus';
import { deviceIdPayload } from '@formcast/contracts';
import { parsePayload, requireOrgId } from '@formcast/platform';
import type { DirectoryDeps } from './deps';

export const deleteDevice =
  ({ store }: DirectoryDeps): CommandHandler =>
  async (command) => {
    const orgId = requireOrgId(command);
    const { deviceId } = parsePayload(deviceIdPayload, command.payload);
    await store.deleteDevice(orgId, deviceId);
    return null;
  };
