import type { CommandHandler } from '@formcast/bus';
import { deviceSideListPayload, type DeviceOneshotView } from '@formcast/contracts';
import { parsePayload, requireOrgId } from '@formcast/platform';
import { toDeviceOneshotView } from '../domain/views';
import { windowOf } from './list-window';
import type { PushDeps } from './deps';

/** GET /device/oneshots: the authenticated device's outstanding oneshots, with payloads; with a window, one page of them. */
export const deviceListOneshots =
  ({ store }: PushDeps): CommandHandler =>
  async (command): Promise<DeviceOneshotView[]> => {
    const { deviceId, ...window } = parsePayload(deviceSideListPayload, command.payload);
    return (await store.listOutstandingForDevice(requireOrgId(command), deviceId, windowOf(window))).map(toDeviceOneshotView);
  };
