import type { DeviceView } from '@formcast/contracts';
import { buildXml, xmlArray, xmlBoolean, xmlInteger, xmlNullableText } from '../xml/build-xml';

/** Spec 2.6, plus `pending-approval`, `groups` and `custom-attributes` as the real product has them. */
function deviceElement(device: DeviceView): Record<string, unknown> {
  return {
    id: xmlInteger(device.id),
    identifier: device.identifier,
    'organization-id': xmlInteger(device.organization_id),
    owner: device.owner,
    description: xmlNullableText(device.description),
    'pending-approval': xmlBoolean(device.pending_approval),
    groups: device.groups,
    'custom-attributes': {},
  };
}

export function renderDevicesXml(devices: DeviceView[]): string {
  return buildXml('devices', xmlArray('device', devices.map(deviceElement)));
}

export function renderDeviceXml(device: DeviceView): string {
  return buildXml('device', deviceElement(device));
}
