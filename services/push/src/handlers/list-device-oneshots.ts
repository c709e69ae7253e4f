import type { CommandHandler } from '@formcast/bus';
import { deviceOneshotsPayload, type OutstandingOneshotView } from '@formcast/contracts';
import { parsePayload, requireOrgId } from '@formcast/platform';
import { toOutstandingView } from '../domain/views';
import { windowOf } from './list-window';
import type { PushDeps } from './deps';

/**
 * GET /clients/<device>/oneshots: the device's outstanding ones (spec 2.8); with a window
 * (`afterId`, `offset`, `limit`) one page of them: the gateway streams a long list page by
 * page, or answers the page a client asked for.
 */
export const listDeviceOneshots =
  (deps: PushDeps): CommandHandler =>
  async (command): Promise<OutstandingOneshotView[]> => {
    const orgId = requireOrgId(command);
    const { deviceRef, ...window } = parsePayload(deviceOneshotsPayload, command.payload);
    const device = await deps.directory.device(orgId, deviceRef, command.requestId);
    return (await deps.store.listOutstandingForDevice(orgId, device.id, windowOf(window))).map(toOutstandingView);
  };
