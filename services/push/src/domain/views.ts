import type { DeviceOneshotView, OneshotCreatedView, OutstandingOneshotView } from '@formcast/contracts';
import type { Oneshot, OneshotSummary } from './records';

export function toCreatedView(o: Oneshot): OneshotCreatedView {
  return { id: o.id, namespace: o.namespace, name: o.name };
}

export function toOutstandingView(o: OneshotSummary): OutstandingOneshotView {
  return { description: o.description, device_id: o.deviceId, id: o.id, name: o.name, namespace: o.namespace, organization_id: o.orgId };
}

export function toDeviceOneshotView(o: Oneshot): DeviceOneshotView {
  return {
    id: o.id,
    name: o.name,
    description: o.description,
    namespace: o.namespace,
    form_namespace: o.templateNamespace,
    payload: o.payload,
    created_at: o.createdAt,
    updated_at: o.updatedAt,
  };
}
