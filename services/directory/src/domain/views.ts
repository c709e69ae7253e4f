import type { ApiTokenView, DeviceView, FormListItemView, GroupView } from '@formcast/contracts';
import type { ApiToken, Device, Form, Group } from './records';

export function toGroupView(group: Group): GroupView {
  return { id: group.id, name: group.name, form_ids: group.formIds, device_ids: group.deviceIds };
}

/** `groupNames` maps group id to name for the device's organization. */
export function toDeviceView(device: Device, groupNames: Map<number, string>): DeviceView {
  return {
    id: device.id,
    identifier: device.identifier,
    organization_id: device.orgId,
    owner: device.owner,
    description: device.description,
    pending_approval: device.pendingApproval,
    groups: device.groupIds.map((id) => groupNames.get(id)).filter((n) => n !== undefined).join(','),
    custom_attributes: {},
  };
}

/** Revision 1 shows as "1.00", 2 as "1.01": the real product's version format. */
export function formatFormVersion(revision: number): string {
  return (1 + (revision - 1) / 100).toFixed(2);
}

export function toFormListItemView(form: Form, groupNames: Map<number, string>): FormListItemView {
  return {
    id: form.id,
    name: form.name,
    namespace: form.namespace,
    version: formatFormVersion(form.revision),
    description: form.description,
    group: groupNames.get(form.groupId) ?? '',
  };
}

export function toApiTokenView(token: ApiToken): ApiTokenView {
  return { id: token.id, label: token.label, created_at: token.createdAt, revoked_at: token.revokedAt };
}

export function groupNameIndex(groups: Group[]): Map<number, string> {
  return new Map(groups.map((g) => [g.id, g.name]));
}
