import { AppError } from '@formcast/platform';
import { isNode, type XmlNode } from './parse-xml';

const localName = (qualified: string) => qualified.slice(qualified.indexOf(':') + 1);
const childNames = (node: XmlNode) => Object.keys(node).filter((key) => !key.startsWith('@_') && key !== '#text');

/** An element's value: its text, or an object of its child elements by local name, a repeated one as a list (attributes ignored). */
function valueOf(node: unknown): unknown {
  if (typeof node === 'string') return node;
  if (!isNode(node)) return '';
  const children = childNames(node);
  if (children.length === 0) return typeof node['#text'] === 'string' ? node['#text'] : '';
  return Object.fromEntries(children.map((name) => [localName(name), Array.isArray(node[name]) ? node[name].map(valueOf) : valueOf(node[name])]));
}

/**
 * One `<dispatch>` as the JSON item it stands for: each child element a field, by its local
 * name (dashes read as underscores, as Rails' XML has them); `<payload>` holds the questions,
 * each element a question's value (a subform's elements nested, a group's repetitions
 * repeated), `<payload/>` none. Whether the fields are right is the push service's to say,
 * item by item: a field given twice arrives as a list and is refused there.
 */
function dispatchItem(node: unknown): Record<string, unknown> {
  if (!isNode(node)) return {};
  return Object.fromEntries(
    childNames(node).map((name) => {
      const field = localName(name).replace(/-/g, '_');
      const value = Array.isArray(node[name]) ? node[name].map(valueOf) : valueOf(node[name]);
      return [field, field === 'payload' && value === '' ? {} : value];
    }),
  );
}

/**
 * A bulk dispatch in XML: `<dispatches type="array"><dispatch><device>…</device>
 * <form_namespace>…</form_namespace>…<payload><question>value</question></payload>
 * </dispatch>…</dispatches>`, the JSON body's shape written as Rails writes arrays.
 */
export function readBulkDispatchesXml(document: XmlNode): Array<Record<string, unknown>> {
  const roots = Object.keys(document);
  if (roots.length !== 1 || localName(roots[0]!) !== 'dispatches') throw new AppError('invalid', 'XML root element must be <dispatches type="array">');
  const root = document[roots[0]!];
  if (!isNode(root)) return [];
  const names = childNames(root);
  const other = names.find((name) => localName(name) !== 'dispatch');
  if (other !== undefined) throw new AppError('invalid', `<dispatches> holds <dispatch> elements only, not <${other}>`);
  if (names.length === 0) return [];
  // fast-xml-parser groups elements by name: two spellings would lose their order.
  if (names.length > 1) throw new AppError('invalid', `<dispatches> holds its <dispatch> elements written one way, not as ${names.join(' and ')}`);
  const dispatches = root[names[0]!];
  return (Array.isArray(dispatches) ? dispatches : [dispatches]).map(dispatchItem);
}
