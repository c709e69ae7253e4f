import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { AppError } from '@formcast/platform';
import { refuseUnwritableText } from './unwritable-text';
import { xmlEntityDecoder } from './xml-entities';

/** Deeper documents are refused: no request of this API nests more than a few levels. */
export const maxXmlDepth = 32;

const parserOptions = {
  ignoreAttributes: false,
  attributeNamePrefix: '@_',
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: true,
  ignoreDeclaration: true,
  ignorePiTags: true,
  // The parser counts the document itself among the open tags: this allows maxXmlDepth elements.
  maxNestedTags: maxXmlDepth - 1,
  // Only the predefined entities and character references can occur: DOCTYPEs are refused
  // before parsing, so no entity can be declared, let alone expanded.
  processEntities: true,
  entityDecoder: xmlEntityDecoder,
} as const;
const parser = new XMLParser(parserOptions);
/** The same, keeping the order of the elements (XForms: a form's questions are its controls, in order). */
const orderedParser = new XMLParser({ ...parserOptions, preserveOrder: true });

/** Any DOCTYPE or entity declaration, anywhere: the classic XXE / billion-laughs vectors. */
const declarationPattern = /<!\s*(DOCTYPE|ENTITY|ELEMENT|ATTLIST)/i;

export type XmlNode = Record<string, unknown>;

/**
 * Parses an XML request body. Refuses DOCTYPEs and entity declarations, malformed XML (one
 * root element, no more), documents nested deeper than the limit, and text (raw or from a
 * character reference) that XML cannot carry, naming its element; each with AppError('invalid').
 */
export function parseXml(text: string): XmlNode {
  return parseChecked(text, parser) as XmlNode;
}

/** One element of a document parsed in order: its name, its attributes (`@_name`), its content in order. */
export type OrderedXmlNode = { [name: string]: OrderedXmlNode[] } & { ':@'?: Record<string, string>; '#text'?: string };

/**
 * As parseXml, with every refusal of it, keeping the order of the elements: the document as
 * its one root element, in fast-xml-parser's preserveOrder form.
 */
export function parseOrderedXml(text: string): OrderedXmlNode {
  const nodes = parseChecked(text, orderedParser) as OrderedXmlNode[];
  const elementsOnly = nodes.filter((node) => node['#text'] === undefined);
  if (elementsOnly.length !== 1) throw new AppError('invalid', 'Malformed XML: one root element is needed');
  return elementsOnly[0]!;
}

function parseChecked(text: string, xmlParser: XMLParser): unknown {
  if (declarationPattern.test(text)) {
    throw new AppError('invalid', 'XML with a DOCTYPE or entity declarations is not accepted');
  }
  const valid = XMLValidator.validate(text);
  if (valid !== true) {
    throw new AppError('invalid', `Malformed XML: ${valid.err.msg} (line ${valid.err.line})`);
  }
  let document: unknown;
  try {
    document = xmlParser.parse(text) as unknown;
  } catch (error) {
    const reason = error instanceof Error ? error.message : 'unreadable';
    throw new AppError('invalid', `Malformed XML: ${reason}`);
  }
  if (!Array.isArray(document)) {
    // The validator lets several root elements through; the same name twice parses as a list.
    const roots = Object.keys(document as XmlNode);
    if (roots.length > 1 || Array.isArray((document as XmlNode)[roots[0]!])) throw new AppError('invalid', 'Malformed XML: more than one root element');
  }
  refuseUnwritableText(document, 'xml');
  return document;
}

/** The one element under the document, by name; anything else is a bad request. */
export function rootElement(document: XmlNode, name: string): XmlNode {
  const keys = Object.keys(document);
  if (keys.length !== 1 || keys[0] !== name) {
    throw new AppError('invalid', `XML root element must be <${name}>`);
  }
  const root = document[name];
  return isNode(root) ? root : {};
}

export function isNode(value: unknown): value is XmlNode {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** An element that may occur once or many times, as a list. */
export function elements(value: unknown): unknown[] {
  if (value === undefined) return [];
  return Array.isArray(value) ? value : [value];
}

/** An element's text: `<a>x</a>` and `<a type="…">x</a>` give "x"; `<a/>` gives "". */
export function elementText(value: unknown, field: string): string {
  if (typeof value === 'string') return value;
  if (isNode(value)) {
    const text = value['#text'];
    if (text === undefined) return '';
    if (typeof text === 'string') return text;
  }
  throw new AppError('invalid', `${field}: must be a text element`);
}
