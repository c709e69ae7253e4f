import { maxPackageEntries } from '../office-package';
import type { ArchiveParts } from './archive-parts';
import { appendBounded, maxWorkbookPartBytes } from './limits';
import { readWorkbookRelationships, workbookPart, type Relationship } from './workbook-relationships';
import { localName, parseXmlPart, type XmlPartVisitor } from './xml-part';

export interface WorkbookSheet {
  name: string;
  /** The archive path of its part, e.g. `xl/worksheets/sheet1.xml`. */
  part: string;
}

export interface WorkbookLayout {
  /** The worksheets in workbook order (tab order); chart and macro sheets left out. */
  sheets: WorkbookSheet[];
  /** The archive path of the shared strings part, if the workbook names one or has `xl/sharedStrings.xml`. */
  sharedStrings: string | undefined;
}

const defaultSharedStrings = 'xl/sharedStrings.xml';

/**
 * The workbook's worksheets from `xl/workbook.xml`, each with its part through the
 * workbook's relationships. A workbook without relationships part (not valid, but exceljs
 * read it) takes its n-th sheet from `xl/worksheets/sheet<n>.xml`, where Excel puts it.
 * Throws when a sheet has no name, no relationship, or a part missing from the archive or
 * shared with another sheet.
 */
export async function readWorkbookLayout(parts: ArchiveParts): Promise<WorkbookLayout> {
  const entry = parts.find(workbookPart);
  if (!entry) throw new Error(`the archive has no ${workbookPart}`);
  if (entry.uncompressedSize > maxWorkbookPartBytes) throw new Error(`${workbookPart} is larger than ${maxWorkbookPartBytes} bytes`);
  const relationships = await readWorkbookRelationships(parts);
  const visitor = new SheetsVisitor();
  await parseXmlPart(await parts.open(entry), visitor);

  const sheets: WorkbookSheet[] = [];
  const usedParts = new Set<string>();
  visitor.sheets.forEach(({ name, relationshipId }, index) => {
    const part = relationships ? worksheetPart(relationships, name, relationshipId) : `xl/worksheets/sheet${index + 1}.xml`;
    if (part === undefined) return; // a chart or macro sheet: no table
    if (!parts.find(part)) throw new Error(`sheet ${name}: the archive has no ${part}`);
    if (usedParts.has(part.toLowerCase())) throw new Error(`sheet ${name}: ${part} is another sheet's part`);
    usedParts.add(part.toLowerCase());
    sheets.push({ name, part });
  });
  let sharedStrings = parts.find(defaultSharedStrings) ? defaultSharedStrings : undefined;
  for (const relationship of relationships?.values() ?? []) {
    if (relationship.kind === 'sharedStrings') sharedStrings = relationship.part;
  }
  return { sheets, sharedStrings };
}

function worksheetPart(relationships: Map<string, Relationship>, name: string, relationshipId: string | undefined): string | undefined {
  if (relationshipId === undefined) throw new Error(`sheet ${name} has no relationship id`);
  const relationship = relationships.get(relationshipId);
  if (!relationship) throw new Error(`sheet ${name}: the workbook has no relationship ${relationshipId}`);
  return relationship.kind === 'worksheet' ? relationship.part : undefined;
}

class SheetsVisitor implements XmlPartVisitor {
  done = false;
  readonly sheets: Array<{ name: string; relationshipId: string | undefined }> = [];

  open(path: readonly string[], attributes: Readonly<Record<string, string>>): void {
    if (path.length === 1 && path[0] !== 'workbook') throw new Error(`${workbookPart} is not a workbook`);
    if (path.length !== 3 || path[1] !== 'sheets' || path[2] !== 'sheet') return;
    if (this.sheets.length === maxPackageEntries) throw new Error(`${workbookPart} lists more than ${maxPackageEntries} sheets`);
    const name = appendBounded('', attributes.name ?? '', 'a sheet name');
    if (name === '') throw new Error(`${workbookPart} has a sheet without a name`);
    this.sheets.push({ name, relationshipId: relationshipIdOf(attributes) });
  }

  close(path: readonly string[]): void {
    if (path.length === 2 && path[1] === 'sheets') this.done = true; // the rest (defined names…) is not needed
  }

  text(): void {}
}

/** The `r:id` attribute, whatever prefix the relationships namespace has. */
function relationshipIdOf(attributes: Readonly<Record<string, string>>): string | undefined {
  for (const [name, value] of Object.entries(attributes)) {
    if (name.includes(':') && localName(name) === 'id') return appendBounded('', value, 'a relationship id');
  }
  return undefined;
}
