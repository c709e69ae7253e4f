import { XMLParser } from 'fast-xml-parser';

/**
 * Shape checks of Formcast's answers against the product documentation's examples (compat-B's
 * doc files): the shape, never the values. JSON: every key the example has, with a value of
 * the same JSON type (an example's null takes anything; arrays: each element against the
 * example's first); keys the example lacks are allowed (Formcast may answer more). XML: the
 * same root, and every element the example has, nested the same; attributes ignored.
 */
const anyKeysMarker = Symbol('any keys');

/**
 * Where the example's keys are data, not names (question identifiers, a device's
 * attributes): an object whose every value has `value`'s shape, whatever its keys.
 */
export function anyKeys(value: unknown): object {
  return { [anyKeysMarker]: value };
}

export function expectJsonShape(actual: unknown, example: unknown, path = '$'): void {
  const fail = (what: string) => {
    throw new Error(`${path}: ${what} (the documented example has ${JSON.stringify(example)?.slice(0, 120)}, Formcast answered ${JSON.stringify(actual)?.slice(0, 120)})`);
  };
  if (example === null) return;
  if (Array.isArray(example)) {
    if (!Array.isArray(actual)) fail('not an array');
    if (example.length > 0) (actual as unknown[]).forEach((item, index) => expectJsonShape(item, example[0], `${path}[${index}]`));
    return;
  }
  if (typeof example === 'object') {
    if (typeof actual !== 'object' || actual === null || Array.isArray(actual)) fail('not an object');
    if (anyKeysMarker in (example as object)) {
      const value = (example as Record<symbol, unknown>)[anyKeysMarker];
      for (const [key, each] of Object.entries(actual as object)) expectJsonShape(each, value, `${path}.${key}`);
      return;
    }
    for (const key of Object.keys(example as object)) {
      if (!(key in (actual as object))) fail(`no key ${key}`);
      expectJsonShape((actual as Record<string, unknown>)[key], (example as Record<string, unknown>)[key], `${path}.${key}`);
    }
    return;
  }
  if (typeof actual !== typeof example) fail(`a ${typeof actual}, not a ${typeof example}`);
}

const parser = new XMLParser({ ignoreAttributes: true, ignoreDeclaration: true, parseTagValue: false, isArray: () => true });

type XmlTree = Record<string, unknown>;

function elementShape(actual: unknown, example: unknown, path: string): void {
  const exampleNode = Array.isArray(example) ? example[0] : example;
  if (typeof exampleNode !== 'object' || exampleNode === null) return; // text: any text (or nothing) will do
  const exampleChildren = Object.keys(exampleNode as XmlTree).filter((name) => name !== '#text');
  if (exampleChildren.length === 0) return;
  const actualNodes = (Array.isArray(actual) ? actual : [actual]) as unknown[];
  if (actualNodes.length === 0) throw new Error(`${path}: missing`);
  for (const [index, node] of actualNodes.entries()) {
    if (typeof node !== 'object' || node === null) throw new Error(`${path}[${index}]: has no elements; the example has <${exampleChildren.join('>, <')}>`);
    for (const name of exampleChildren) {
      if (!(name in (node as XmlTree))) throw new Error(`${path}[${index}]: no <${name}> (the example has it)`);
      elementShape((node as XmlTree)[name], (exampleNode as XmlTree)[name], `${path}/${name}`);
    }
  }
}

/** `actual` parses, has the example's root element and every element the example nests, the same way. */
export function expectXmlShape(actual: string, example: string): void {
  const actualTree = parser.parse(actual) as XmlTree;
  const exampleTree = parser.parse(example) as XmlTree;
  const [exampleRoot] = Object.keys(exampleTree);
  const [actualRoot] = Object.keys(actualTree);
  if (actualRoot !== exampleRoot) throw new Error(`XML root <${String(actualRoot)}>, the example's is <${String(exampleRoot)}>`);
  elementShape(actualTree[actualRoot!], exampleTree[exampleRoot!], `/${exampleRoot}`);
}
