import type {
  ApiTokenView,
  AuthenticatedDevice,
  DeviceV2View,
  DeviceVersionsView,
  DeviceView,
  DeviceViewGeneration,
  DeviceWithPushTokenPresenceView,
  FormListItemView,
  GroupView,
  OrganizationView,
  ResolvedDevice,
  ResolvedForm,
} from '@formcast/contracts';
import type { ApiToken, Device, Form, FormDefinition, Group, Organization } from './records';

export function toGroupView(group: Group): GroupView {
  return { id: group.id, name: group.name, form_ids: group.formIds, device_ids: group.deviceIds, tags: group.tags };
}

/** The names of the device's groups, in id order, leaving out any the map cannot name. */
function deviceGroupNames(device: Device, groupNames: Map<number, string>): string[] {
  return device.groupIds.map((id) => groupNames.get(id)).filter((name) => name !== undefined);
}

/** The first generation's device. `groupNames` maps group id to name for the device's organization. */
export function toDeviceView(device: Device, groupNames: Map<number, string>): DeviceView {
  return {
    id: device.id,
    identifier: device.identifier,
    organization_id: device.orgId,
    owner: device.owner,
    description: device.description,
    pending_approval: device.pendingApproval,
    groups: deviceGroupNames(device, groupNames).join(','),
    custom_attributes: { ...device.customAttributes },
  };
}

/** The first generation's device and whether it has a push token: a boolean, never the token. */
export function toDeviceWithPushTokenPresenceView(device: Device, groupNames: Map<number, string>): DeviceWithPushTokenPresenceView {
  return { ...toDeviceView(device, groupNames), push_token_present: device.pushToken !== null };
}

/** The second generation's device: reported versions, groups as `{name}` objects. */
export function toDeviceV2View(device: Device, groupNames: Map<number, string>): DeviceV2View {
  return {
    id: device.id,
    identifier: device.identifier,
    os_version: device.osVersion,
    app_identifier: device.appIdentifier,
    app_version: device.appVersion,
    organization_id: device.orgId,
    owner: device.owner,
    description: device.description,
    pending_approval: device.pendingApproval,
    groups: deviceGroupNames(device, groupNames).map((name) => ({ name })),
    custom_attributes: { ...device.customAttributes },
  };
}

/** A device in the shape of the generation asked for. */
export function toDeviceViewOf(
  generation: DeviceViewGeneration,
  device: Device,
  groupNames: Map<number, string>,
): DeviceView | DeviceV2View {
  return generation === 'v2' ? toDeviceV2View(device, groupNames) : toDeviceView(device, groupNames);
}

/** What a device sees of its own report. */
export function toDeviceVersionsView(device: Device): DeviceVersionsView {
  const { id, identifier, osVersion, appIdentifier, appVersion } = device;
  return { id, identifier, os_version: osVersion, app_identifier: appIdentifier, app_version: appVersion };
}

/** For other services (internal: carries the push token). */
export function toResolvedDevice(device: Device): ResolvedDevice {
  const { id, orgId, identifier, owner, pendingApproval, pushToken, groupIds, customAttributes } = device;
  return { id, orgId, identifier, owner, pendingApproval, pushToken, groupIds, customAttributes };
}

export function toAuthenticatedDevice(device: Device): AuthenticatedDevice {
  return { deviceId: device.id, orgId: device.orgId, identifier: device.identifier };
}

/** Revision 1 shows as "1.00", 2 as "1.01": the real product's version format. */
export function formatFormVersion(revision: number): string {
  return (1 + (revision - 1) / 100).toFixed(2);
}

/** The revision a `?version=` names: `"1.02"` as formatFormVersion writes it (revision 3), or the revision itself (`"3"`). */
export function revisionOfVersion(version: string): number | undefined {
  if (/^[0-9]{1,9}$/.test(version)) return Number(version);
  const match = /^([0-9]{1,9})\.([0-9]{1,2})$/.exec(version);
  if (!match) return undefined;
  const hundredths = Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
  return hundredths >= 100 ? hundredths - 99 : undefined;
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

/** The form's definition, as posted, with its namespace, version, description and group, as form.md shows it. */
export function toFormDefinitionView(form: Form, groupNames: Map<number, string>): FormDefinition {
  return { ...form.definition, namespace: form.namespace, version: formatFormVersion(form.revision), description: form.description, group: groupNames.get(form.groupId) ?? '' };
}

/** For other services: a template with its questions, to check pushed values and answers against. */
export function toResolvedForm(form: Form): ResolvedForm {
  return {
    id: form.id,
    orgId: form.orgId,
    namespace: form.namespace,
    name: form.name,
    version: formatFormVersion(form.revision),
    groupId: form.groupId,
    questions: form.definition.children,
  };
}

export function toOrganizationView(organization: Organization): OrganizationView {
  return { id: organization.id, name: organization.name, created_at: organization.createdAt };
}

export function toApiTokenView(token: ApiToken): ApiTokenView {
  return { id: token.id, label: token.label, created_at: token.createdAt, revoked_at: token.revokedAt };
}
