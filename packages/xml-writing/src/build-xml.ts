import { XMLBuilder } from 'fast-xml-parser';
import { xmlSafeText } from './xml-characters';

const options = {
  ignoreAttributes: false,
  attributeNamePrefix: '@_',
  suppressEmptyNode: true,
  suppressBooleanAttributes: false,
  processEntities: true,
} as const;

const indented = new XMLBuilder({ ...options, format: true, indentBy: '  ' });
const compact = new XMLBuilder({ ...options, format: false });

const declaration = '<?xml version="1.0" encoding="UTF-8"?>\n';

/**
 * Renders one root element, Rails `to_xml` style: declaration, two-space indent. Characters
 * XML cannot carry, should any be stored, become U+FFFD (xmlSafeText), so the answer always parses.
 */
export function buildXml(rootName: string, root: Record<string, unknown>): string {
  return declaration + xmlSafeText(indented.build({ [rootName]: root }));
}

/** As buildXml, on one line after the declaration: no whitespace between elements (a device's XML instance). */
export function buildCompactXml(rootName: string, root: Record<string, unknown>): string {
  return declaration + xmlSafeText(compact.build({ [rootName]: root }));
}

/** `<n type="integer">5</n>` */
export function xmlInteger(value: number): Record<string, unknown> {
  return { '#text': value, '@_type': 'integer' };
}

/** `<b type="boolean">true</b>` */
export function xmlBoolean(value: boolean): Record<string, unknown> {
  return { '#text': String(value), '@_type': 'boolean' };
}

/** Text, or `<x nil="true"/>` when empty. */
export function xmlNullableText(value: string | null | undefined): Record<string, unknown> | string {
  return value === null || value === undefined || value === '' ? { '@_nil': 'true' } : value;
}

/** `<items type="array"><item>…</item></items>`; empty lists are empty containers. */
export function xmlArray(itemName: string, items: unknown[]): Record<string, unknown> {
  return items.length === 0 ? { '@_type': 'array' } : { '@_type': 'array', [itemName]: items };
}
