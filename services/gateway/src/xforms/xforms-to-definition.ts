import { AppError } from '@formcast/platform';
import { parseOrderedXml, type OrderedXmlNode } from '../xml/parse-xml';
import { isChoiceType, isContainerType, questionKeysOfXforms, typeOfBindType, typeOfControl, xformsNamespace, xhtmlNamespace } from './xforms-vocabulary';

type Json = Record<string, unknown>;

/** What cannot be mapped to a form definition: a 400 naming it, never dropped. */
function refuse(where: string, what: string): never {
  throw new AppError('invalid', `XForms: ${where}: ${what}`);
}

const nameOf = (node: OrderedXmlNode): string => Object.keys(node).find((key) => key !== ':@' && key !== '#text')!;

function attributesOf(node: OrderedXmlNode): Map<string, string> {
  return new Map(Object.entries(node[':@'] ?? {}).map(([key, value]) => [key.replace(/^@_/, ''), value]));
}

/** How an element is named in a refusal: `<input ref="alpha">`. */
function label(node: OrderedXmlNode): string {
  const name = nameOf(node);
  const attributes = attributesOf(node);
  const by = attributes.has('ref') ? 'ref' : attributes.has('nodeset') ? 'nodeset' : undefined;
  return by === undefined ? `<${name}>` : `<${name} ${by}="${attributes.get(by)}">`;
}

/** Its child elements; text beside them is refused. */
function childElements(node: OrderedXmlNode): OrderedXmlNode[] {
  const content = node[nameOf(node)] ?? [];
  for (const child of content) if (child['#text'] !== undefined && child['#text'] !== '') refuse(label(node), `text "${child['#text'].slice(0, 40)}" outside any element is not part of a form`);
  return content.filter((child) => child['#text'] === undefined);
}

/** Its text; child elements are refused. */
function textOf(node: OrderedXmlNode): string {
  const content = node[nameOf(node)] ?? [];
  const element = content.find((child) => child['#text'] === undefined);
  if (element !== undefined) refuse(label(node), `<${nameOf(element)}> inside it is not supported (text only)`);
  return content.map((child) => child['#text'] ?? '').join('');
}

/** Refuses any attribute but those allowed (namespace declarations and `dm:` ones when asked). */
function onlyAttributes(node: OrderedXmlNode, allowed: string[], { dm = false, xmlns = false } = {}): Map<string, string> {
  const attributes = attributesOf(node);
  for (const name of attributes.keys()) {
    if (allowed.includes(name) || (dm && name.startsWith('dm:')) || (xmlns && (name === 'xmlns' || name.startsWith('xmlns:')))) continue;
    refuse(label(node), `the attribute ${name} has no place in a form definition`);
  }
  return attributes;
}

/** `dm:autoIdentifier="true"` → `autoIdentifier: true`; text otherwise. */
function dmProperties(attributes: Map<string, string>, reserved: Set<string>, where: string): Json {
  const properties: Json = {};
  for (const [name, value] of attributes) {
    if (!name.startsWith('dm:')) continue;
    const key = name.slice(3);
    if (reserved.has(key) || key === '__proto__') refuse(where, `the attribute ${name} names what XForms writes in its own terms`);
    properties[key] = value === 'true' ? true : value === 'false' ? false : value;
  }
  return properties;
}

/** One element of the instance: a question's, holding its questions' when it has any. */
interface InstanceElement {
  name: string;
  children: InstanceElement[];
}

function instanceElement(node: OrderedXmlNode): InstanceElement {
  onlyAttributes(node, []);
  const content = node[nameOf(node)] ?? [];
  const text = content.find((child) => child['#text'] !== undefined && child['#text'] !== '');
  if (text !== undefined) refuse(`<${nameOf(node)}> in the instance`, 'a default value is not supported');
  return { name: nameOf(node), children: childElements(node).map(instanceElement) };
}

interface Bind {
  type?: string;
  required?: boolean;
}

/** `<bind nodeset="/root/a/b" type="…" required="true()"/>`, by the question's path under the instance root (`a/b`). */
function readBinds(nodes: OrderedXmlNode[], rootName: string): Map<string, Bind> {
  const binds = new Map<string, Bind>();
  for (const node of nodes) {
    const attributes = onlyAttributes(node, ['nodeset', 'type', 'required']);
    if (childElements(node).length > 0) refuse(label(node), 'a bind holds no elements');
    const nodeset = attributes.get('nodeset');
    if (nodeset === undefined) refuse('<bind>', 'nodeset is required');
    const path = relativePath(nodeset, rootName);
    if (binds.has(path)) refuse(`<bind nodeset="${nodeset}">`, 'a second bind for the same question');
    const required = attributes.get('required');
    if (required !== undefined && required !== 'true()' && required !== 'false()') refuse(`<bind nodeset="${nodeset}">`, `required="${required}": only true() or false()`);
    binds.set(path, { type: attributes.get('type'), required: required === undefined ? undefined : required === 'true()' });
  }
  return binds;
}

/** `/untitled_form_1/alpha` or `alpha` → `alpha`. */
function relativePath(path: string, rootName: string): string {
  const absolute = `/${rootName}/`;
  const relative = path.startsWith(absolute) ? path.slice(absolute.length) : path;
  if (relative === '' || !/^[^/\s[\]()]+(\/[^/\s[\]()]+)*$/.test(relative)) refuse(`"${path}"`, 'a reference must be a path of element names in the instance');
  return relative;
}

interface Level {
  /** The instance elements this level's controls refer to. */
  elements: InstanceElement[];
  /** Their path under the instance root ('' at the top). */
  path: string;
}

function questionsOf(controls: OrderedXmlNode[], level: Level, binds: Map<string, Bind>, used: Set<string>, rootName: string): Json[] {
  const questions = controls.map((control) => question(control, level, binds, used, rootName));
  for (const element of level.elements) {
    const path = level.path === '' ? element.name : `${level.path}/${element.name}`;
    if (!used.has(path)) refuse(`<${element.name}> in the instance`, 'no control in <h:body> refers to it');
  }
  return questions;
}

function question(control: OrderedXmlNode, level: Level, binds: Map<string, Bind>, used: Set<string>, rootName: string): Json {
  const name = nameOf(control);
  if (name !== 'input' && typeOfControl[name] === undefined) refuse(label(control), 'no question type is written this way (input, textarea, secret, select1, select, group, repeat are)');
  const attributes = onlyAttributes(control, name === 'repeat' ? ['nodeset', 'ref'] : ['ref'], { dm: true });
  const ref = attributes.get('ref') ?? attributes.get('nodeset');
  if (ref === undefined) refuse(label(control), `${name === 'repeat' ? 'nodeset' : 'ref'} is required`);
  const path = relativePath(ref, rootName);
  const own = level.path === '' ? path : path.startsWith(`${level.path}/`) ? path.slice(level.path.length + 1) : path;
  const element = level.elements.find((candidate) => candidate.name === own);
  const fullPath = level.path === '' ? own : `${level.path}/${own}`;
  if (element === undefined) refuse(label(control), `the instance has no <${own}> here`);
  if (used.has(fullPath)) refuse(label(control), 'a second control for the same question');
  used.add(fullPath);
  const bind = binds.get(fullPath) ?? {};
  binds.delete(fullPath);

  const type = typeOfControl[name] ?? (bind.type === undefined ? 'text' : typeOfBindType[bind.type]);
  if (type === undefined) refuse(`<bind nodeset="${ref}">`, `type="${bind.type}" is no question type Formcast knows`);
  if (typeOfControl[name] !== undefined && bind.type !== undefined && bind.type !== 'xsd:string') refuse(`<bind nodeset="${ref}">`, `type="${bind.type}" does not fit <${name}>`);
  if (!isContainerType(type) && element.children.length > 0) {
    refuse(`<${own}> in the instance`, `it holds elements, but <${name}> is a single question: only group and repeat hold questions`);
  }

  const result: Json = { identifier: own, type, ...dmProperties(attributes, questionKeysOfXforms, label(control)) };
  if (bind.required !== undefined) result['required'] = bind.required;
  const options: Json[] = [];
  const inner: OrderedXmlNode[] = [];
  for (const child of childElements(control)) {
    const childName = nameOf(child);
    if (childName === 'label') {
      onlyAttributes(child, []);
      result['title'] = textOf(child);
    } else if (childName === 'hint') {
      onlyAttributes(child, []);
      result['hint'] = textOf(child);
    } else if (childName === 'item' && isChoiceType(type)) {
      options.push(option(child, label(control)));
    } else if (isContainerType(type) && childName !== 'item') {
      inner.push(child);
    } else {
      refuse(label(control), `<${childName}> inside it is not supported`);
    }
  }
  if (isChoiceType(type)) result['options'] = options;
  if (isContainerType(type)) result['children'] = questionsOf(inner, { elements: element.children, path: fullPath }, binds, used, rootName);
  return result;
}

function option(item: OrderedXmlNode, where: string): Json {
  onlyAttributes(item, []);
  let title: string | undefined;
  let value: string | undefined;
  for (const child of childElements(item)) {
    onlyAttributes(child, []);
    if (nameOf(child) === 'label') title = textOf(child);
    else if (nameOf(child) === 'value') value = textOf(child);
    else refuse(`${where} <item>`, `<${nameOf(child)}> inside it is not supported (label and value are)`);
  }
  if (value === undefined) refuse(`${where} <item>`, 'an item needs a <value>');
  return title === undefined ? { value } : { title, value };
}

function only(nodes: OrderedXmlNode[], name: string, where: string): OrderedXmlNode {
  const found = nodes.filter((node) => nameOf(node) === name);
  if (found.length !== 1) refuse(where, `one <${name}> is needed, ${found.length} given`);
  return found[0]!;
}

/**
 * A form definition from XForms as form.md shows it (`<h:html>`: a title, a model with one
 * instance and binds, a body of controls). The instance's namespace is the form's; its root
 * element holds one element per question (a group's and repeat's hold theirs), each with one
 * control in the body, in order. Types: see xforms-vocabulary.ts; `required` from a bind;
 * `dm:` attributes carry the other keys of a question (and of the definition, on `<h:html>`).
 * Anything the definition has no place for is refused (400), naming it: never dropped.
 */
export function xformsToDefinition(text: string): Json {
  const root = parseOrderedXml(text);
  if (nameOf(root) !== 'h:html') refuse(`<${nameOf(root)}>`, 'the root element must be <h:html> (XForms, as form.md shows it)');
  const rootAttributes = onlyAttributes(root, [], { dm: true, xmlns: true });
  if (rootAttributes.get('xmlns:h') !== xhtmlNamespace) refuse('<h:html>', `xmlns:h must be ${xhtmlNamespace}`);
  if (rootAttributes.get('xmlns') !== xformsNamespace) refuse('<h:html>', `xmlns must be ${xformsNamespace}`);

  const parts = childElements(root);
  for (const part of parts) if (nameOf(part) !== 'h:head' && nameOf(part) !== 'h:body') refuse(`<${nameOf(part)}>`, 'only <h:head> and <h:body> belong in <h:html>');
  const head = only(parts, 'h:head', '<h:html>');
  const body = only(parts, 'h:body', '<h:html>');
  onlyAttributes(head, []);
  onlyAttributes(body, []);

  const headParts = childElements(head);
  for (const part of headParts) if (nameOf(part) !== 'h:title' && nameOf(part) !== 'model') refuse(`<${nameOf(part)}>`, 'only <h:title> and <model> belong in <h:head>');
  const titleNode = only(headParts, 'h:title', '<h:head>');
  onlyAttributes(titleNode, []);
  const model = only(headParts, 'model', '<h:head>');
  onlyAttributes(model, []);
  const modelParts = childElements(model);
  for (const part of modelParts) if (nameOf(part) !== 'instance' && nameOf(part) !== 'bind') refuse(`<${nameOf(part)}>`, 'only <instance> and <bind> belong in <model>');
  const instance = only(modelParts, 'instance', '<model>');
  const namespace = onlyAttributes(instance, ['xmlns']).get('xmlns');
  const instanceRoots = childElements(instance);
  if (instanceRoots.length !== 1) refuse('<instance>', `one root element is needed, ${instanceRoots.length} given`);
  const instanceRoot = instanceElement(instanceRoots[0]!);

  const binds = readBinds(modelParts.filter((part) => nameOf(part) === 'bind'), instanceRoot.name);
  const children = questionsOf(childElements(body), { elements: instanceRoot.children, path: '' }, binds, new Set(), instanceRoot.name);
  const [unbound] = binds.keys();
  if (unbound !== undefined) refuse(`<bind nodeset="${unbound}">`, 'no question of the body has this path');

  const definition: Json = { type: 'root', title: textOf(titleNode), ...dmProperties(rootAttributes, new Set(['type', 'title', 'namespace', 'children', 'version', 'group']), '<h:html>'), children };
  if (namespace !== undefined && namespace !== '') definition['namespace'] = namespace;
  return definition;
}
