import type { DeviceView } from '@formcast/contracts';
import { xmlBoolean, xmlInteger, xmlNullableText } from '@formcast/xml-writing';
import { recordXml } from './record-xml';

/**
 * `<custom-attributes>`: empty as the real product showed it (`<custom-attributes/>`), else
 * one `<custom-attribute><key/><value/>` a pair, the second generation's shape with this
 * generation's dashes (a name is any text, so it cannot be an element name).
 */
function customAttributesElement(attributes: Record<string, string>): Record<string, unknown> {
  const pairs = Object.entries(attributes);
  return pairs.length === 0 ? {} : { 'custom-attribute': pairs.map(([key, value]) => ({ key, value })) };
}

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
    'custom-attributes': customAttributesElement(device.custom_attributes),
  };
}

export const { list: renderDevicesXml, one: renderDeviceXml } = recordXml('devices', 'device', deviceElement);
