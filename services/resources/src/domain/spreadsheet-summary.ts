import ExcelJS from 'exceljs';
import type { ContentColumn, ContentTable } from './records';
import { workbookPartsStream } from './workbook-archive';

/** What exceljs's streaming reader gives for one sheet (its typings omit the name). */
interface StreamedSheet extends AsyncIterable<ExcelJS.Row> {
  name: string;
}

/** `test_resource.xlsx` → `test_resource`: the last extension goes, and any folder part. */
export function fileBaseName(fileName: string): string {
  const name = fileName.split(/[\\/]/).pop() ?? fileName;
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(0, dot) : name;
}

/** A header cell as text: strings as they are, numbers and dates written out, formulas by result. */
export function cellText(value: ExcelJS.CellValue | undefined): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return String(value);
  if (typeof value === 'boolean') return value ? 'TRUE' : 'FALSE';
  if (value instanceof Date) return value.toISOString();
  if ('richText' in value) return value.richText.map((run) => run.text).join('');
  if ('error' in value) return String(value.error);
  if ('hyperlink' in value) return cellText(value.text as ExcelJS.CellValue);
  if ('result' in value) return cellText(value.result as ExcelJS.CellValue);
  return '';
}

/**
 * The header row's columns: each non-blank cell of the first row, numbered by its position
 * in the sheet (A = 1), an id for each from `newId`.
 */
function headerColumns(row: ExcelJS.Row | undefined, newId: () => string): ContentColumn[] {
  const columns: ContentColumn[] = [];
  row?.eachCell({ includeEmpty: false }, (cell, number) => {
    const name = cellText(cell.value);
    if (name.trim() !== '') columns.push({ name, number, id: newId() });
  });
  return columns;
}

/**
 * `generated_content_summary` of an .xlsx file: one table per sheet, in workbook order,
 * named `<file name without extension>.<sheet name>`, its columns from the sheet's first
 * row. Read with exceljs's streaming reader, fed the parts it needs in the order it needs
 * them (see workbookPartsStream): each sheet is parsed only up to its first row, so a large
 * sheet is never held in memory nor written to disk. Throws when the workbook cannot be read.
 */
export async function summarizeSpreadsheet(fileName: string, bytes: Buffer, newId: () => string): Promise<ContentTable[]> {
  const parts = await workbookPartsStream(bytes);
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(parts.stream, {
    worksheets: 'emit',
    sharedStrings: 'cache',
    hyperlinks: 'ignore',
    styles: 'ignore',
    entries: 'ignore',
  });
  return Promise.race([readTables(reader, fileBaseName(fileName), newId), parts.failure]);
}

async function readTables(reader: ExcelJS.stream.xlsx.WorkbookReader, base: string, newId: () => string): Promise<ContentTable[]> {
  const tables: ContentTable[] = [];
  for await (const sheet of reader as AsyncIterable<unknown> as AsyncIterable<StreamedSheet>) {
    let firstRow: ExcelJS.Row | undefined;
    for await (const row of sheet) {
      firstRow = row;
      break; // the rest of the sheet is drained without being parsed
    }
    const sheetName = String(sheet.name);
    tables.push({ tableName: `${base}.${sheetName}`, sheetName, id: newId(), columns: headerColumns(firstRow, newId) });
  }
  return inWorkbookOrder(tables, sheetOrder(reader));
}

/** Sheet names in the workbook's order, once `xl/workbook.xml` has been read. */
function sheetOrder(reader: unknown): string[] {
  const sheets = (reader as { model?: { sheets?: Array<{ name?: unknown }> } }).model?.sheets ?? [];
  return sheets.map((sheet) => String(sheet.name));
}

/** The reader meets sheets in archive order; the workbook's own order is what people see. */
function inWorkbookOrder(tables: ContentTable[], order: string[]): ContentTable[] {
  const rank = (table: ContentTable) => {
    const index = order.indexOf(table.sheetName);
    return index === -1 ? order.length : index;
  };
  return tables
    .map((table, index) => ({ table, index }))
    .sort((a, b) => rank(a.table) - rank(b.table) || a.index - b.index)
    .map(({ table }) => table);
}
