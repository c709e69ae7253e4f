import { maxPackageEntries } from '../office-package';
import type { ArchiveParts } from './archive-parts';
import { appendBounded, maxWorkbookPartBytes } from './limits';
import { parseXmlPart, type XmlPartVisitor } from './xml-part';

export const workbookPart = 'xl/workbook.xml';
const workbookRelsPart = 'xl/_rels/workbook.xml.rels';
/** The workbook part as a URI, which its relationship targets are relative to. */
const packageBase = `http://package/${workbookPart}`;
const packageOrigin = new URL(packageBase).origin;

/** What the summary follows from the workbook: its worksheets and its shared strings. */
type FollowedKind = 'worksheet' | 'sharedStrings';

export type Relationship =
  | {
      kind: FollowedKind;
      /** The archive path of the target part, e.g. `xl/worksheets/sheet1.xml`. */
      part: string;
    }
  /** Chart and macro sheets, styles, external links…: not followed. */
  | { kind: 'other' };

/**
 * The workbook's relationships by id, the targets of worksheets and shared strings
 * resolved to archive paths; null when the workbook has no relationships part.
 */
export async function readWorkbookRelationships(parts: ArchiveParts): Promise<Map<string, Relationship> | null> {
  const entry = parts.find(workbookRelsPart);
  if (!entry) return null;
  if (entry.uncompressedSize > maxWorkbookPartBytes) throw new Error(`${workbookRelsPart} is larger than ${maxWorkbookPartBytes} bytes`);
  const visitor = new RelationshipsVisitor();
  await parseXmlPart(await parts.open(entry), visitor);
  return visitor.relationships;
}

class RelationshipsVisitor implements XmlPartVisitor {
  readonly done = false;
  readonly relationships = new Map<string, Relationship>();

  open(path: readonly string[], attributes: Readonly<Record<string, string>>): void {
    if (path.length === 1 && path[0] !== 'Relationships') throw new Error(`${workbookRelsPart} is not a relationships part`);
    if (path.length !== 2 || path[1] !== 'Relationship') return;
    const id = appendBounded('', attributes.Id ?? '', 'a relationship id');
    if (id === '') throw new Error(`${workbookRelsPart} has a relationship without id`);
    if (this.relationships.size === maxPackageEntries) throw new Error(`${workbookRelsPart} has more than ${maxPackageEntries} relationships`);
    if (this.relationships.has(id)) throw new Error(`${workbookRelsPart} has two relationships with id ${id}`);
    const kind = followedKind(attributes.Type ?? '');
    if (!kind || attributes.TargetMode === 'External') {
      this.relationships.set(id, { kind: 'other' });
      return;
    }
    const target = appendBounded('', attributes.Target ?? '', 'a relationship target');
    if (target === '') throw new Error(`${workbookRelsPart} has a relationship without target`);
    this.relationships.set(id, { kind, part: resolveTarget(target) });
  }

  close(): void {}

  text(): void {}
}

/** Transitional (…/officeDocument/2006/relationships/worksheet) and strict (purl.oclc.org) types alike. */
function followedKind(type: string): FollowedKind | undefined {
  const last = type.slice(type.lastIndexOf('/') + 1);
  return last === 'worksheet' || last === 'sharedStrings' ? last : undefined;
}

/**
 * A target as an archive path, resolved as a URI reference against the workbook part's
 * own (`/xl/workbook.xml`): `worksheets/sheet1.xml` and `/xl/worksheets/sheet1.xml` are
 * both `xl/worksheets/sheet1.xml`; `..` is resolved, percent-escapes decoded. Throws for
 * an absolute URI (`https://…`, `C:/…`): not a part of the package.
 */
export function resolveTarget(target: string): string {
  const url = new URL(target, packageBase);
  if (url.origin !== packageOrigin) throw new Error(`a relationship target is not a part of the package: ${target}`);
  const { pathname } = url;
  try {
    return decodeURIComponent(pathname).slice(1);
  } catch {
    return pathname.slice(1); // a stray `%`: taken as it is
  }
}
