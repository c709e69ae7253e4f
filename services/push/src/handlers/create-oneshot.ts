import type { CommandHandler } from '@formcast/bus';
import { createOneshotPayload, pushEvents, type OneshotCreatedView } from '@formcast/contracts';
import { parsePayload, requireOrgId } from '@formcast/platform';
import { dispatchNamespace } from '../domain/dispatch-namespace';
import { oneshotEvent } from '../domain/oneshot-events';
import { checkPayload } from '../domain/payload-rules';
import { toCreatedView } from '../domain/views';
import { approvedDevice } from './approved-device';
import type { PushDeps } from './deps';
import { templateFor } from './template-questions';

/** POST /clients/<device>/oneshots: a pre-filled copy of a template, outstanding on one device. */
export const createOneshot =
  (deps: PushDeps): CommandHandler =>
  async (command): Promise<OneshotCreatedView> => {
    const orgId = requireOrgId(command);
    const input = parsePayload(createOneshotPayload, command.payload);
    const [device, template] = await Promise.all([
      approvedDevice(deps, command, input.deviceRef),
      templateFor(deps, command, input.form_namespace),
    ]);
    const payload = checkPayload(input.payload, template.questions, { lenientRepeats: input.fromXml });
    const oneshot = await deps.store.create(
      {
        orgId,
        deviceId: device.id,
        deviceIdentifier: device.identifier,
        formId: template.id,
        templateNamespace: template.namespace,
        namespace: dispatchNamespace(template.namespace),
        name: input.form_name ?? template.name,
        description: input.form_description ?? '',
        payload,
      },
      oneshotEvent(pushEvents.oneshotCreated, device.pushToken, command.requestId),
      command.id,
    );
    deps.eventsWritten();
    return toCreatedView(oneshot);
  };
