import { AppError } from '@formcast/platform';
import { elements, isNode, type XmlNode } from './parse-xml';

/** The namespace of the push metadata elements (`form_name`, `form_namespace`, `scheduled_at`, …). */
export const pushNamespace = 'http://mobileforms.devicemagic.com/xforms';
/** The first generation's metadata: in the push namespace, or without a prefix (as clients have sent it). */
const firstMetadataNames = ['form_name', 'form_namespace', 'form_description'] as const;
/**
 * The later generations' dispatch fields: in the push namespace only, matched by URI, since
 * a question may well be called `address` or `location`.
 */
const dispatchMetadataNames = ['scheduled_at', 'location', 'address', 'geofence_radius'] as const;
type MetadataName = (typeof firstMetadataNames)[number] | (typeof dispatchMetadataNames)[number];
const metadataNames = new Set<string>([...firstMetadataNames, ...dispatchMetadataNames]);
const unprefixedMetadataNames = new Set<string>(firstMetadataNames);

export type OneshotXml = { [field in MetadataName]?: string } & { payload: Record<string, unknown> };

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
 * The XML create (and v3 update) body: root `oneshot` (any prefix); `form_name`,
 * `form_namespace` and `form_description` in the push namespace, matched by URI whatever the
 * prefix, or without a prefix; `scheduled_at`, `location`, `address` and `geofence_radius`
 * in the push namespace; any other element with a push-namespace prefix is refused, naming it
 * (a misspelt `dm:scheduled_at` must not push at once); every other child element is the
 * value of the question of that (local) name.
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
    const isMetadata = metadataNames.has(local) && (uri === pushNamespace || (unprefixedMetadataNames.has(local) && splitName(name).prefix === ''));
    // Prefixed only: questions written without a prefix under a default push namespace stay questions.
    if (!isMetadata && uri === pushNamespace && splitName(name).prefix !== '') {
      throw new AppError('invalid', `${local}: unknown element of the push namespace ${pushNamespace}; its elements are ${[...metadataNames].join(', ')}`);
    }
    if (isMetadata) {
      const field = local as MetadataName;
      const [only, ...more] = elements(node);
      // Twice under one name, or once with the push prefix and once without.
      if (more.length > 0 || result[field] !== undefined) throw new AppError('invalid', `${local}: must appear once`);
      const text = valueOf(only, scope);
      if (typeof text !== 'string') throw new AppError('invalid', `${local}: must be text`);
      result[field] = text;
      continue;
    }
    if (Object.prototype.hasOwnProperty.call(result.payload, local)) throw new AppError('invalid', `payload.${local}: given twice (with two prefixes)`);
    result.payload[local] = Array.isArray(node) ? node.map((n) => valueOf(n, declarationsOf(n, scope))) : valueOf(node, declarationsOf(node, scope));
  }
  return result;
}
