import type { CommandHandler } from '@formcast/bus';
import { pushEvents, updateOneshotPayload, type OutstandingOneshotView } from '@formcast/contracts';
import { parsePayload, requireOrgId } from '@formcast/platform';
import { approvedDevice } from '../directory-cache/approved-device';
import { pushTemplate } from '../directory-cache/push-template';
import { oneshotEvent } from '../domain/oneshot-events';
import { outstandingOn, updatedOneshot } from '../domain/oneshot-lifecycle';
import { checkPayload } from '../domain/payload-rules';
import { tracedStoreWrite } from '../outbox/traced-store-write';
import { toOutstandingView } from '../domain/views';
import { nowOf, type PushDeps } from './deps';

/** PUT /clients/<device>/oneshots/<id>: payload, name and description replaced as given. */
export const updateOneshot =
  (deps: PushDeps): CommandHandler =>
  async (command): Promise<OutstandingOneshotView> => {
    const { store, directory, eventsWritten } = deps;
    const orgId = requireOrgId(command);
    const input = parsePayload(updateOneshotPayload, command.payload);
    const device = await approvedDevice(directory, command, input.deviceRef);
    const ref = { oneshotId: input.oneshotId, deviceId: device.id };
    // Read first for its template, to check the payload against; the write decides again.
    const current = outstandingOn(await store.get(orgId, input.oneshotId), ref);
    const template = await pushTemplate(directory, command, current.templateNamespace);
    const change = {
      payload: checkPayload(input.payload, template.questions, { lenientRepeats: input.fromXml }),
      name: input.form_name,
      description: input.form_description,
      scheduledAt: input.scheduled_at,
      location: input.location,
      address: input.address,
      geofenceRadius: input.geofence_radius,
    };
    const now = nowOf(deps);
    const oneshot = await tracedStoreWrite('update', (carryTrace) =>
      store.change(
        orgId,
        input.oneshotId,
        (loaded) => updatedOneshot(loaded, ref, change, now),
        carryTrace(oneshotEvent(pushEvents.oneshotUpdated, device.pushToken, command.requestId)),
        command.id,
      ),
    );
    eventsWritten();
    return toOutstandingView(oneshot);
  };
