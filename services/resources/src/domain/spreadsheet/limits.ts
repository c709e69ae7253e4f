/**
 * Bounds on what the summary collects from a workbook. Beyond any of them the workbook is
 * refused as malformed (never cut short: a summary must describe the file as it is).
 */

/** One text: a cell, a sheet name, a relationship target. Excel's own cell limit is 32,767 characters. */
export const maxTextChars = 32 * 1024;
/** Excel's last column, XFD. */
export const maxColumn = 16_384;
/** All the texts one summary collects, blank cells included, and all the text it gives. */
export const maxSummaryChars = 4 * 1024 * 1024;
/** All the columns one summary gives, over every sheet. */
export const maxSummaryColumns = 65_536;
/** `xl/workbook.xml` and its relationships: a few KB in real workbooks. */
export const maxWorkbookPartBytes = 16 * 1024 * 1024;

/** Counts characters against a limit, throwing once they pass it. */
export class TextBudget {
  private spent = 0;

  constructor(
    private readonly limit: number,
    private readonly what: string,
  ) {}

  spend(chars: number): void {
    this.spent += chars;
    if (this.spent > this.limit) throw new Error(`${this.what} exceed ${this.limit} characters`);
  }
}

/** Appends text to what a cell, name or string collected so far, within maxTextChars. */
export function appendBounded(collected: string, text: string, what: string): string {
  if (collected.length + text.length > maxTextChars) throw new Error(`${what} is longer than ${maxTextChars} characters`);
  return collected + text;
}
