import type { CommandHandler } from '@formcast/bus';
import { pushEvents, updateOneshotPayload, type OutstandingOneshotView } from '@formcast/contracts';
import { AppError, parsePayload, requireOrgId } from '@formcast/platform';
import { oneshotEvent } from '../domain/oneshot-events';
import { checkPayload } from '../domain/payload-rules';
import { toOutstandingView } from '../domain/views';
import { approvedDevice } from './approved-device';
import type { PushDeps } from './deps';
import { templateFor } from './template-questions';

/** PUT /clients/<device>/oneshots/<id>: payload, name and description replaced as given. */
export const updateOneshot =
  (deps: PushDeps): CommandHandler =>
  async (command): Promise<OutstandingOneshotView> => {
    const orgId = requireOrgId(command);
    const input = parsePayload(updateOneshotPayload, command.payload);
    const device = await approvedDevice(deps, command, input.deviceRef);
    const current = await deps.store.get(orgId, input.oneshotId);
    if (!current || current.deviceId !== device.id || current.state !== 'outstanding') {
      throw new AppError('not_found', `Oneshot ${input.oneshotId} is not outstanding on this device`);
    }
    const template = await templateFor(deps, command, current.templateNamespace);
    const payload = checkPayload(input.payload, template.questions);
    const oneshot = await deps.store.update(
      orgId,
      device.id,
      input.oneshotId,
      { payload, name: input.form_name, description: input.form_description },
      oneshotEvent(pushEvents.oneshotUpdated, device.pushToken, command.requestId),
      command.id,
    );
    deps.eventsWritten();
    return toOutstandingView(oneshot);
  };
