import type { CommandHandler } from '@formcast/bus';
import { getDispatchPayload, type DispatchView } from '@formcast/contracts';
import { AppError, parsePayload, requireOrgId } from '@formcast/platform';
import { existingDispatch } from '../domain/oneshot-lifecycle';
import { toDispatchView } from '../domain/views';
import type { PushDeps } from './deps';

/**
 * GET /api/v3/dispatches/<id>: one of the organization's dispatches, in any state;
 * `include_inputs` adds its payload. GET /api/v3/devices/<identifier>/dispatches/<id>: the
 * same, of that device only (another device's dispatch is unknown there).
 */
export const getDispatch =
  ({ store, directory }: PushDeps): CommandHandler =>
  async (command): Promise<DispatchView> => {
    const orgId = requireOrgId(command);
    const { dispatchId, include_inputs, deviceRef } = parsePayload(getDispatchPayload, command.payload);
    const device = deviceRef === undefined ? undefined : await directory.device(orgId, deviceRef, command.requestId);
    const { payload, ...dispatch } = existingDispatch(await store.get(orgId, dispatchId), dispatchId);
    if (device !== undefined && dispatch.deviceId !== device.id) throw new AppError('not_found', `Dispatch ${dispatchId} is not one of this device's`);
    return toDispatchView(dispatch, include_inputs ? payload : undefined);
  };
