import type { CommandHandler } from '@formcast/bus';
import { listDeviceDispatchesPayload, type DispatchPageView } from '@formcast/contracts';
import { parsePayload, requireOrgId } from '@formcast/platform';
import { toDispatchPageView } from '../domain/views';
import type { PushDeps } from './deps';

/** GET /api/v3/devices/<identifier>/dispatches: the device's outstanding dispatches, scheduled ones included, a page. */
export const listDeviceDispatches =
  ({ store, directory }: PushDeps): CommandHandler =>
  async (command): Promise<DispatchPageView> => {
    const orgId = requireOrgId(command);
    const { deviceRef, page, items } = parsePayload(listDeviceDispatchesPayload, command.payload);
    const device = await directory.device(orgId, deviceRef, command.requestId);
    return toDispatchPageView(await store.listDispatches(orgId, device.id, (page - 1) * items, items), page, items);
  };
