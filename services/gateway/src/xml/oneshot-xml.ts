import { AppError } from '@formcast/platform';
import { elements, isNode, type XmlNode } from './parse-xml';

/** The namespace of the push metadata elements (`form_name`, `form_namespace`, `form_description`). */
export const pushNamespace = 'http://mobileforms.devicemagic.com/xforms';
const metadataNames = new Set(['form_name', 'form_namespace', 'form_description']);

export interface OneshotXml {
  form_name?: string;
  form_namespace?: string;
  form_description?: string;
  payload: Record<string, unknown>;
}

type Declarations = Map<string, string>;

function splitName(qualified: string): { prefix: string; local: string } {
  const colon = qualified.indexOf(':');
  return colon === -1 ? { prefix: '', local: qualified } : { prefix: qualified.slice(0, colon), local: qualified.slice(colon + 1) };
}

/** xmlns declarations of an element, on top of those in scope. */
function declarationsOf(node: unknown, inScope: Declarations): Declarations {
  if (!isNode(node)) return inScope;
  let scope = inScope;
  for (const [key, value] of Object.entries(node)) {
    if (key === '@_xmlns' || key.startsWith('@_xmlns:')) {
      if (scope === inScope) scope = new Map(inScope);
      scope.set(key === '@_xmlns' ? '' : key.slice('@_xmlns:'.length), String(value));
    }
  }
  return scope;
}

function namespaceOf(qualified: string, scope: Declarations): string | undefined {
  const { prefix } = splitName(qualified);
  const uri = scope.get(prefix);
  if (prefix && uri === undefined) throw new AppError('invalid', `XML prefix "${prefix}" is not declared`);
  return uri;
}

/** An element's value: its text, or an object of its child elements (attributes ignored). */
function valueOf(node: unknown, scope: Declarations): unknown {
  if (typeof node === 'string') return node;
  if (!isNode(node)) return '';
  const children = Object.keys(node).filter((k) => !k.startsWith('@_') && k !== '#text');
  if (children.length === 0) return typeof node['#text'] === 'string' ? node['#text'] : '';
  const inner = declarationsOf(node, scope);
  return Object.fromEntries(
    children.map((name) => {
      namespaceOf(name, inner);
      const items = node[name];
      const local = splitName(name).local;
      return [local, Array.isArray(items) ? items.map((i) => valueOf(i, declarationsOf(i, inner))) : valueOf(items, declarationsOf(items, inner))];
    }),
  );
}

/**
 * The XML create body: root `oneshot` (any prefix); `form_name`, `form_namespace` and
 * `form_description` in the push namespace, matched by URI whatever the prefix, or without a
 * prefix; every other child element is the value of the question of that (local) name.
 */
export function readOneshotXml(document: XmlNode): OneshotXml {
  const roots = Object.keys(document).filter((k) => !k.startsWith('?'));
  if (roots.length !== 1 || splitName(roots[0]!).local !== 'oneshot') throw new AppError('invalid', 'XML root element must be <oneshot>');
  const rootNode = document[roots[0]!];
  const scope = declarationsOf(rootNode, new Map());
  namespaceOf(roots[0]!, scope);
  const result: OneshotXml = { payload: {} };
  if (!isNode(rootNode)) return result;
  for (const name of Object.keys(rootNode)) {
    if (name.startsWith('@_') || name === '#text') continue;
    const node = rootNode[name];
    const local = splitName(name).local;
    const uri = namespaceOf(name, declarationsOf(node, scope));
    const isMetadata = metadataNames.has(local) && (uri === pushNamespace || splitName(name).prefix === '');
    if (isMetadata) {
      const [only, ...more] = elements(node);
      if (more.length > 0) throw new AppError('invalid', `${local}: must appear once`);
      const text = valueOf(only, scope);
      if (typeof text !== 'string') throw new AppError('invalid', `${local}: must be text`);
      result[local as 'form_name' | 'form_namespace' | 'form_description'] = text;
      continue;
    }
    if (Object.prototype.hasOwnProperty.call(result.payload, local)) throw new AppError('invalid', `payload.${local}: given twice (with two prefixes)`);
    result.payload[local] = Array.isArray(node) ? node.map((n) => valueOf(n, declarationsOf(n, scope))) : valueOf(node, declarationsOf(node, scope));
  }
  return result;
}
