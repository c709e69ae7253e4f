import type { Readable } from 'node:stream';
import { maxInflatedWorkbookBytes } from './office-package';
import type { ContentTable } from './records';
import { openArchiveParts, type ArchiveParts } from './spreadsheet/archive-parts';
import { readFirstRow, type HeaderCell } from './spreadsheet/first-row';
import { maxSummaryChars, maxSummaryColumns, SummaryBudget, TextBudget, type SummaryBudgetLimits } from './spreadsheet/limits';
import { pickSharedStrings } from './spreadsheet/shared-strings';
import { readWorkbookLayout, type WorkbookLayout } from './spreadsheet/workbook-sheets';

/** The defaults of RESOURCE_SUMMARY_MAX_BYTES and RESOURCE_SUMMARY_MAX_CPU_MS. */
export const defaultSummaryBudget: SummaryBudgetLimits = { maxBytes: 64 * 1024 * 1024, maxCpuMs: 2000 };

/** `test_resource.xlsx` → `test_resource`: the last extension goes, and any folder part. */
export function fileBaseName(fileName: string): string {
  const name = fileName.split(/[\\/]/).pop() ?? fileName;
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(0, dot) : name;
}

/**
 * `generated_content_summary` of an .xlsx file: one table per worksheet, in workbook
 * order, named `<file name without extension>.<sheet name>`, its columns the non-blank
 * cells of the sheet's first row, numbered by position (A = 1), an id for each from
 * `newId`. Each sheet is inflated and parsed only up to the end of its first row, and the
 * shared strings only up to the last one those rows use, keeping no other string: memory
 * does not grow with the file. Nothing is written to disk. Throws when the workbook cannot
 * be read (see spreadsheet/ for what counts as malformed, and limits.ts for the bounds).
 */
export async function summarizeSpreadsheet(
  fileName: string,
  bytes: Buffer,
  newId: () => string,
  limits: SummaryBudgetLimits = defaultSummaryBudget,
): Promise<ContentTable[]> {
  const budget = new SummaryBudget(limits);
  const parts = await openArchiveParts(bytes);
  try {
    const layout = await readWorkbookLayout(parts);
    checkInflatedSize(parts, layout);
    const collected = new TextBudget(maxSummaryChars, 'the texts read from the workbook');
    const firstRows: HeaderCell[][] = [];
    for (const sheet of layout.sheets) firstRows.push(await readFirstRow(budget.metered(await openPart(parts, sheet.part)), collected));
    const strings = await sharedStringsOf(parts, layout, firstRows, collected, budget);

    const given = new TextBudget(maxSummaryChars, 'the summary texts');
    let columnCount = 0;
    const base = fileBaseName(fileName);
    return layout.sheets.map((sheet, index): ContentTable => {
      given.spend(sheet.name.length);
      const table: ContentTable = { tableName: `${base}.${sheet.name}`, sheetName: sheet.name, id: newId(), columns: [] };
      for (const cell of firstRows[index] ?? []) {
        const name = 'text' in cell ? cell.text : (strings.get(cell.sharedString) ?? '');
        if (name.trim() === '') continue;
        given.spend(name.length);
        if (++columnCount > maxSummaryColumns) throw new Error(`the workbook has more than ${maxSummaryColumns} header columns`);
        table.columns.push({ name, number: cell.column, id: newId() });
      }
      return table;
    });
  } finally {
    parts.close();
  }
}

/** The texts of the shared strings the first rows refer to, read only if any does. */
async function sharedStringsOf(
  parts: ArchiveParts,
  layout: WorkbookLayout,
  firstRows: HeaderCell[][],
  budget: TextBudget,
  work: SummaryBudget,
): Promise<Map<number, string>> {
  const indices = new Set<number>();
  for (const cell of firstRows.flat()) if ('sharedString' in cell) indices.add(cell.sharedString);
  if (indices.size === 0) return new Map();
  if (!layout.sharedStrings) throw new Error('a cell refers to a shared string; the workbook has none');
  return pickSharedStrings(work.metered(await openPart(parts, layout.sharedStrings)), indices, budget);
}

async function openPart(parts: ArchiveParts, name: string): Promise<Readable> {
  const entry = parts.find(name);
  if (!entry) throw new Error(`the archive has no ${name}`);
  return parts.open(entry);
}

/**
 * The parts the summary may inflate, as their central directory entries declare them,
 * are held to the bound the content check applies to `xl/worksheets/`: sheets may live
 * elsewhere. (yauzl holds each part to its declared size.)
 */
function checkInflatedSize(parts: ArchiveParts, layout: WorkbookLayout): void {
  const names = [...layout.sheets.map((sheet) => sheet.part), ...(layout.sharedStrings ? [layout.sharedStrings] : [])];
  const declared = names.reduce((sum, name) => sum + (parts.find(name)?.uncompressedSize ?? 0), 0);
  if (declared > maxInflatedWorkbookBytes) throw new Error(`the sheets and shared strings declare more than ${maxInflatedWorkbookBytes} bytes`);
}
