import { XMLParser } from 'fast-xml-parser';

/**
 * Shapes of the product's documented examples (issue 22's compatibility suite,
 * test/docs-compat/): an answer holds an example's shape, not its values. JSON: every key
 * the example has, with the same type (an integer stays a number, a string a string, an
 * array an array whose items hold the example's first item's shape); keys the example does
 * not show are allowed (README: where Formcast answers more). XML: the same root, and every
 * element the example has, at the same place; attributes are not compared (Formcast types
 * its elements where the docs' examples do not).
 */

/** The docs' JSON as written: trailing commas allowed (`{"a": 1,}` is in v3/dispatch.md). */
export function docJson(text: string): unknown {
  return JSON.parse(text.replace(/,(\s*[}\]])/g, '$1'));
}

export interface ShapeOptions {
  /** Paths (`$.inputs`, `$.devices[].custom_attributes`) whose keys are data: only an object is required there. */
  freeKeys?: string[];
  /** Paths where the example shows a value and Formcast may answer null (a dispatch sent at once has no scheduled_at). */
  nullable?: string[];
}

const kind = (value: unknown): string => (value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value);

/** How `actual` differs from the shape of the documented `example`: one line per difference, none when it holds it. */
export function shapeMismatches(actual: unknown, example: unknown, options: ShapeOptions = {}, path = '$'): string[] {
  // The docs write null where a value may be absent: any value holds it.
  if (example === null) return [];
  if (actual === null && options.nullable?.includes(path)) return [];
  if (kind(actual) !== kind(example)) return [`${path}: the docs show ${kind(example)} (${JSON.stringify(example)?.slice(0, 60)}), Formcast answers ${kind(actual)} (${JSON.stringify(actual)?.slice(0, 60)})`];
  if (Array.isArray(example)) {
    const items = actual as unknown[];
    if (example.length === 0) return [];
    if (items.length === 0) return [`${path}: the docs show items, Formcast's answer has none (the test must make some)`];
    return items.flatMap((item) => shapeMismatches(item, example[0], options, `${path}[]`));
  }
  if (typeof example === 'object') {
    if (options.freeKeys?.includes(path)) return [];
    const object = actual as Record<string, unknown>;
    return Object.entries(example as Record<string, unknown>).flatMap(([key, value]) =>
      key in object ? shapeMismatches(object[key], value, options, `${path}.${key}`) : [`${path}.${key}: documented, missing from Formcast's answer`],
    );
  }
  return [];
}

const xmlParser = new XMLParser({ ignoreAttributes: true, ignoreDeclaration: true, ignorePiTags: true, parseTagValue: false, isArray: () => true });

type XmlTree = Record<string, unknown>;

/** The element tree of a document: each element → its children's trees (repeated elements as a list). */
export function xmlTree(xml: string): XmlTree {
  return xmlParser.parse(xml) as XmlTree;
}

/** The documented XML `example`'s elements missing from `actual`, by path; its root must be the same. */
export function xmlShapeMismatches(actualXml: string, exampleXml: string, options: { freeElements?: string[] } = {}): string[] {
  const walk = (actual: unknown, example: unknown, path: string): string[] => {
    if (!Array.isArray(example) || example.length === 0) return [];
    const first = example[0];
    if (typeof first !== 'object' || first === null) return [];
    if (options.freeElements?.includes(path)) return [];
    const actualItems = Array.isArray(actual) ? actual : [];
    if (actualItems.length === 0) return [`${path}: documented, missing from Formcast's answer`];
    const children = Object.keys(first as object).filter((name) => name !== '#text');
    return actualItems.flatMap((item) =>
      children.flatMap((name) => {
        const mine = typeof item === 'object' && item !== null ? (item as XmlTree)[name] : undefined;
        if (mine === undefined) return [`${path}/${name}: documented, missing from Formcast's answer`];
        return walk(mine, (first as XmlTree)[name], `${path}/${name}`);
      }),
    );
  };
  const actual = xmlTree(actualXml);
  const example = xmlTree(exampleXml);
  const [exampleRoot] = Object.keys(example);
  const actualRoots = Object.keys(actual);
  if (actualRoots.length !== 1 || actualRoots[0] !== exampleRoot) return [`root: the docs show <${exampleRoot}>, Formcast answers <${actualRoots.join('>, <')}>`];
  return walk(actual[exampleRoot!], example[exampleRoot!], `/${exampleRoot}`);
}
