import { cellValue, type CellValue } from './cell-value';
import { appendBounded, maxColumn, type TextBudget } from './limits';
import { parseXmlPart, type XmlPartVisitor } from './xml-part';

/** A cell of a sheet's first row with a value (a shared string may still turn out blank), by its column (A = 1). */
export type HeaderCell = CellValue & { column: number };

/**
 * The non-blank cells of a worksheet part's first `<row>` in `<sheetData>`, in column
 * order; none for a sheet without rows. Reading stops at the end of that row: the rest
 * of the part is neither inflated nor parsed. Cell texts count against `budget`. Throws
 * for a malformed part or cell, a column past XFD, a text past maxTextChars, or two cells
 * in one column.
 */
export async function readFirstRow(chunks: AsyncIterable<Buffer>, budget: TextBudget): Promise<HeaderCell[]> {
  const visitor = new FirstRowVisitor(budget);
  await parseXmlPart(chunks, visitor);
  return visitor.cells.sort((a, b) => a.column - b.column);
}

interface OpenCell {
  column: number;
  type: string | undefined;
  value?: string;
  inline?: string;
}

// Paths below: worksheet / sheetData / row / c / (v | is / (t | r / t)); phonetic runs
// (is / rPh / t) are left out.
class FirstRowVisitor implements XmlPartVisitor {
  done = false;
  readonly cells: HeaderCell[] = [];
  private readonly columnsSeen = new Set<number>();
  private inRow = false;
  private cell: OpenCell | undefined;
  private lastColumn = 0;

  constructor(private readonly budget: TextBudget) {}

  open(path: readonly string[], attributes: Readonly<Record<string, string>>): void {
    const depth = path.length;
    if (depth === 1 && path[0] !== 'worksheet') throw new Error('a sheet part is not a worksheet');
    if (depth === 3 && path[1] === 'sheetData' && path[2] === 'row') this.inRow = true;
    if (!this.inRow) return;
    if (depth === 4 && path[3] === 'c') this.cell = this.openCell(attributes);
    if (depth === 5 && path[4] === 'is' && this.cell) this.cell.inline ??= '';
  }

  close(path: readonly string[]): void {
    const depth = path.length;
    if (depth === 2 && path[1] === 'sheetData') this.done = true; // a sheet without rows
    if (!this.inRow) return;
    if (depth === 3) this.done = true;
    if (depth === 4 && this.cell) this.closeCell(this.cell);
  }

  text(path: readonly string[], text: string): void {
    const cell = this.cell;
    if (!cell || path.length < 5) return;
    if (path.length === 5 && path[4] === 'v') {
      cell.value = this.collect(cell.value, text);
    } else if (path[4] === 'is' && path[path.length - 1] === 't' && (path.length === 6 || (path.length === 7 && path[5] === 'r'))) {
      cell.inline = this.collect(cell.inline, text);
    }
  }

  private collect(collected: string | undefined, text: string): string {
    this.budget.spend(text.length);
    return appendBounded(collected ?? '', text, 'a cell');
  }

  private openCell(attributes: Readonly<Record<string, string>>): OpenCell {
    const column = attributes.r === undefined ? this.lastColumn + 1 : columnOf(attributes.r);
    if (column > maxColumn) throw new Error(`a cell lies past column ${maxColumn}`);
    if (this.columnsSeen.has(column)) throw new Error(`two cells of the first row are in column ${column}`);
    this.columnsSeen.add(column);
    this.lastColumn = column;
    return { column, type: attributes.t };
  }

  private closeCell(cell: OpenCell): void {
    this.cell = undefined;
    const value = cellValue(cell.type, cell.value, cell.inline);
    if (value === undefined || ('text' in value && value.text.trim() === '')) return;
    this.cells.push({ ...value, column: cell.column });
  }
}

/** `A1` → 1, `AA7` → 27, `XFD1` → 16384; throws for anything not a cell reference. */
export function columnOf(reference: string): number {
  const letters = /^([A-Za-z]{1,3})\d+$/.exec(reference)?.[1];
  if (!letters) throw new Error(`a cell reference is not one: ${reference.slice(0, 16)}`);
  let column = 0;
  for (const letter of letters.toUpperCase()) column = column * 26 + (letter.charCodeAt(0) - 64);
  return column;
}
