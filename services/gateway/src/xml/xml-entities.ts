import type { X2jOptions } from 'fast-xml-parser';

type EntityDecoder = NonNullable<X2jOptions['entityDecoder']>;

const predefined: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };
const reference = /&(?:#x([0-9a-fA-F]{1,6})|#([0-9]{1,7})|(lt|gt|amp|quot|apos));/g;

function decodeReference(whole: string, hex: string | undefined, decimal: string | undefined, name: string | undefined): string {
  if (name !== undefined) return predefined[name]!;
  const code = hex !== undefined ? parseInt(hex, 16) : Number(decimal);
  if (code > 0x10ffff) throw new Error(`${whole} is not a character`);
  // One XML cannot carry (`&#7;`, `&#xD800;`) is decoded here and refused by parseXml,
  // which names the element that holds it.
  return String.fromCodePoint(code);
}

/**
 * What an XML text or attribute value may hold besides characters: the five predefined
 * entities and character references (`&#233;`, `&#xE9;`), decoded in one pass, so `&amp;#65;`
 * stays `&#65;`. fast-xml-parser (since 5.7) decodes character references only together
 * with HTML's named entities, which XML does not have. Entities a DOCTYPE declares are never
 * expanded (DOCTYPEs are refused before parsing anyway); an undeclared one stays as written.
 */
export const xmlEntityDecoder: EntityDecoder = {
  decode: (text) => (text.includes('&') ? text.replace(reference, decodeReference) : text),
  addInputEntities: () => {},
  setExternalEntities: () => {},
  setXmlVersion: () => {},
  reset: () => {},
};
