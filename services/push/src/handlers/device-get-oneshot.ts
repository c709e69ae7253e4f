import type { CommandHandler } from '@formcast/bus';
import { deviceSideGetPayload, type DeviceOneshotView } from '@formcast/contracts';
import { AppError, parsePayload, requireOrgId } from '@formcast/platform';
import { toDeviceOneshotView } from '../domain/views';
import type { PushDeps } from './deps';

/** GET /device/oneshots/<id>: one of its own outstanding oneshots; anything else is 404. */
export const deviceGetOneshot =
  ({ store }: PushDeps): CommandHandler =>
  async (command): Promise<DeviceOneshotView> => {
    const { deviceId, oneshotId } = parsePayload(deviceSideGetPayload, command.payload);
    const oneshot = await store.get(requireOrgId(command), oneshotId);
    if (!oneshot || oneshot.deviceId !== deviceId || oneshot.state !== 'outstanding') {
      throw new AppError('not_found', `Oneshot ${oneshotId} does not exist`);
    }
    return toDeviceOneshotView(oneshot);
  };
