import type { DeviceV2View } from '@formcast/contracts';
import { xmlArray, xmlBoolean, xmlInteger, xmlNullableText } from '@formcast/xml-writing';
import { recordXml } from './record-xml';

/**
 * A device as the second generation shows it (observed-behaviour): underscored names,
 * `<groups type="array"><name>…`, `<custom_attributes type="array"><custom_attribute><key/><value/>…`;
 * versions the device never reported are `nil="true"`.
 */
function deviceV2Element(device: DeviceV2View): Record<string, unknown> {
  const attributes = Object.entries(device.custom_attributes).map(([key, value]) => ({ key, value }));
  return {
    id: xmlInteger(device.id),
    identifier: device.identifier,
    os_version: xmlNullableText(device.os_version),
    app_identifier: xmlNullableText(device.app_identifier),
    app_version: xmlNullableText(device.app_version),
    organization_id: xmlInteger(device.organization_id),
    owner: device.owner,
    description: xmlNullableText(device.description),
    pending_approval: xmlBoolean(device.pending_approval),
    groups: xmlArray('name', device.groups.map((group) => group.name)),
    custom_attributes: xmlArray('custom_attribute', attributes),
  };
}

/** `<devices type="array"><device>…</device></devices>` */
export const { list: renderDevicesV2Xml, one: renderDeviceV2Xml } = recordXml('devices', 'device', deviceV2Element);
