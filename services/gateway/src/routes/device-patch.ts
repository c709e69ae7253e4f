import type { Request } from 'express';
import { AppError } from '@formcast/platform';
import { isPlainObject } from '../http/json-object';
import { readBody } from '../http/request-body';
import { elements, elementText, isNode, rootElement, type XmlNode } from '../xml/parse-xml';

/** What a device update changes, as the directory's update command takes it; absent fields stay. */
export interface DevicePatch {
  owner?: string;
  description?: string;
  groups?: string[];
  /** Checked in depth by the directory (object of names to text, its limits). */
  custom_attributes?: unknown;
}

const jsonShape = '{"device": {"owner", "description", "groups", "custom_attributes"}}';

/** `"Default,Field"` → ["Default", "Field"]; "" → no groups. */
function namesOfList(value: string): string[] {
  return value.split(',').map((name) => name.trim()).filter((name) => name.length > 0);
}

/**
 * JSON groups in either generation's shape: `"Default,Field"` (the first), `[{"name":
 * "Default"}]` (the second), or `["Default"]`.
 */
function groupsOfJson(value: unknown): string[] {
  if (typeof value === 'string') return namesOfList(value);
  if (Array.isArray(value)) {
    return value.map((item) => {
      if (typeof item === 'string') return item;
      if (isPlainObject(item) && typeof item['name'] === 'string') return item['name'];
      throw new AppError('invalid', 'groups: each group must be a name or {"name": "…"}');
    });
  }
  throw new AppError('invalid', 'groups: must be comma-separated group names, or a list of {"name": "…"}');
}

function optionalString(value: unknown, field: string): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw new AppError('invalid', `${field}: must be a string`);
  return value;
}

/** XML groups: `<groups>Default,Field</groups>` (the first generation) or `<groups type="array"><name>Default</name>…` (the second). */
function groupsOfXml(value: unknown): string[] {
  if (isNode(value) && value['#text'] === undefined) {
    return elements(value['name']).map((name) => elementText(name, 'groups'));
  }
  return namesOfList(elementText(value, 'groups'));
}

/**
 * XML custom attributes, as the second generation shows them:
 * `<custom_attributes type="array"><custom_attribute><key/><value/></custom_attribute>…`
 * (dashed names as the first generation spells elements, too). A name given twice is refused.
 */
function customAttributesOfXml(value: unknown): Record<string, string> {
  const field = 'custom_attributes';
  if (!isNode(value)) {
    if (elementText(value, field).trim() === '') return {};
    throw new AppError('invalid', `${field}: must hold <custom_attribute><key/><value/></custom_attribute> elements`);
  }
  const pairs: [string, string][] = [];
  for (const item of elements(value['custom_attribute'] ?? value['custom-attribute'])) {
    if (!isNode(item) || item['key'] === undefined) throw new AppError('invalid', `${field}: each <custom_attribute> needs a <key>`);
    const key = elementText(item['key'], `${field} key`);
    if (pairs.some(([seen]) => seen === key)) throw new AppError('invalid', `${field}: the name ${JSON.stringify(key)} is given twice`);
    pairs.push([key, item['value'] === undefined ? '' : elementText(item['value'], `${field} value`)]);
  }
  return Object.fromEntries(pairs);
}

function patchOfXml(device: XmlNode): DevicePatch {
  const text = (field: string) => (device[field] === undefined ? undefined : elementText(device[field], field));
  const attributes = device['custom_attributes'] ?? device['custom-attributes'];
  return {
    owner: text('owner'),
    description: text('description'),
    groups: device['groups'] === undefined ? undefined : groupsOfXml(device['groups']),
    custom_attributes: attributes === undefined ? undefined : customAttributesOfXml(attributes),
  };
}

/**
 * A device update of either generation: XML `<device><owner/><description/><groups/>
 * <custom_attributes/></device>` or JSON `{"device": {…}}`. Custom attributes replace the
 * device's, and so do groups.
 */
export function devicePatchFromBody(req: Request): DevicePatch {
  const body = readBody(req);
  if (body.kind === 'json') {
    const device = isPlainObject(body.value) ? body.value['device'] : undefined;
    if (!isPlainObject(device)) throw new AppError('invalid', `Expected a JSON object ${jsonShape}`);
    const { owner, description, groups, custom_attributes } = device;
    return {
      owner: optionalString(owner, 'owner'),
      description: optionalString(description, 'description'),
      groups: groups === undefined ? undefined : groupsOfJson(groups),
      custom_attributes,
    };
  }
  if (body.kind === 'xml') return patchOfXml(rootElement(body.value, 'device'));
  throw new AppError('invalid', `Send XML <device> or JSON ${jsonShape}`);
}
