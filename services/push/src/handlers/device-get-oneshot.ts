import type { CommandHandler } from '@formcast/bus';
import { deviceSideGetPayload, type DeviceOneshotView } from '@formcast/contracts';
import { parsePayload, requireOrgId } from '@formcast/platform';
import { outstandingForDevice, ownOneshot } from '../domain/oneshot-lifecycle';
import { toDeviceOneshotView } from '../domain/views';
import type { PushDeps } from './deps';

/**
 * GET /device/oneshots/<id>: one of its own outstanding oneshots; anything else is 404. With
 * `includeEnded`, its own ended ones too (the gateway's path check for a submission).
 */
export const deviceGetOneshot =
  ({ store }: PushDeps): CommandHandler =>
  async (command): Promise<DeviceOneshotView> => {
    const { deviceId, oneshotId, includeEnded } = parsePayload(deviceSideGetPayload, command.payload);
    const oneshot = await store.get(requireOrgId(command), oneshotId);
    const ref = { oneshotId, deviceId };
    return toDeviceOneshotView(includeEnded ? ownOneshot(oneshot, ref) : outstandingForDevice(oneshot, ref));
  };
