import type { CommandHandler } from '@formcast/bus';
import { findOutstandingOneshotPayload } from '@formcast/contracts';
import { parsePayload, requireOrgId } from '@formcast/platform';
import { outstandingOn } from '../domain/oneshot-lifecycle';
import type { PushDeps } from './deps';

/**
 * Whether one oneshot is outstanding on the device (released or still scheduled), read by its
 * id: not_found when unknown, another device's or ended, as the update and revoke that follow
 * would answer. The gateway asks before it reads a body, so this never lists the device's.
 */
export const findOutstandingOneshot =
  ({ store, directory }: PushDeps): CommandHandler =>
  async (command): Promise<{ id: number }> => {
    const orgId = requireOrgId(command);
    const { deviceRef, oneshotId } = parsePayload(findOutstandingOneshotPayload, command.payload);
    const device = await directory.device(orgId, deviceRef, command.requestId);
    return { id: outstandingOn(await store.get(orgId, oneshotId), { deviceId: device.id, oneshotId }).id };
  };
