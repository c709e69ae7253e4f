import type { CommandHandler } from '@formcast/bus';
import { getDispatchPayload, type DispatchView } from '@formcast/contracts';
import { parsePayload, requireOrgId } from '@formcast/platform';
import { existingDispatch } from '../domain/oneshot-lifecycle';
import { toDispatchView } from '../domain/views';
import type { PushDeps } from './deps';

/** GET /api/v3/dispatches/<id>: one of the organization's dispatches, in any state; `include_inputs` adds its payload. */
export const getDispatch =
  ({ store }: PushDeps): CommandHandler =>
  async (command): Promise<DispatchView> => {
    const { dispatchId, include_inputs } = parsePayload(getDispatchPayload, command.payload);
    const { payload, ...dispatch } = existingDispatch(await store.get(requireOrgId(command), dispatchId), dispatchId);
    return toDispatchView(dispatch, include_inputs ? payload : undefined);
  };
