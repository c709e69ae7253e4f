import { XMLBuilder } from 'fast-xml-parser';
import { xmlSafeText } from './xml-characters';

const builder = new XMLBuilder({
  ignoreAttributes: false,
  attributeNamePrefix: '@_',
  format: true,
  indentBy: '  ',
  suppressEmptyNode: true,
  suppressBooleanAttributes: false,
  processEntities: true,
});

const declaration = '<?xml version="1.0" encoding="UTF-8"?>\n';

/**
 * Renders one root element, Rails `to_xml` style: declaration, two-space indent. Characters
 * XML cannot carry, should any be stored, become U+FFFD (xmlSafeText), so the answer always parses.
 */
export function buildXml(rootName: string, root: Record<string, unknown>): string {
  return declaration + xmlSafeText(builder.build({ [rootName]: root }));
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
