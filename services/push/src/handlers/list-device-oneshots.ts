import type { CommandHandler } from '@formcast/bus';
import { deviceOneshotsPayload, type OutstandingOneshotView } from '@formcast/contracts';
import { parsePayload, requireOrgId } from '@formcast/platform';
import { toOutstandingView } from '../domain/views';
import type { PushDeps } from './deps';

/** GET /clients/<device>/oneshots: the device's outstanding ones (spec 2.8). */
export const listDeviceOneshots =
  (deps: PushDeps): CommandHandler =>
  async (command): Promise<OutstandingOneshotView[]> => {
    const orgId = requireOrgId(command);
    const { deviceRef } = parsePayload(deviceOneshotsPayload, command.payload);
    const device = await deps.directory.device(orgId, deviceRef, command.requestId);
    return (await deps.store.listOutstandingForDevice(orgId, device.id)).map(toOutstandingView);
  };
