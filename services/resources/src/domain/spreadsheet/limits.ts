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

/** Past the work a summary may cost (RESOURCE_SUMMARY_MAX_BYTES, RESOURCE_SUMMARY_MAX_CPU_MS): the upload is 422. */
export class SummaryBudgetExceeded extends Error {}

export interface SummaryBudgetLimits {
  /** Bytes inflated and parsed, every sheet and the shared strings together. */
  maxBytes: number;
  /** Milliseconds spent parsing them (on this thread, between chunks). */
  maxCpuMs: number;
}

/**
 * The work one summary may cost: bytes inflated from its parts, and the time spent parsing
 * them. A workbook whose first row hides gigabytes of comments (each small enough for the
 * token bound) is stopped here, long before it costs seconds of the service's CPU.
 */
export class SummaryBudget {
  private bytes = 0;
  private cpuMs = 0;

  constructor(private readonly limits: SummaryBudgetLimits) {}

  /** The part's chunks, each counted, and the time its reader spends on each measured. */
  async *metered(chunks: AsyncIterable<Buffer>): AsyncIterable<Buffer> {
    for await (const chunk of chunks) {
      this.bytes += chunk.length;
      if (this.bytes > this.limits.maxBytes) throw new SummaryBudgetExceeded(`more than ${this.limits.maxBytes} bytes to read`);
      const handedAt = performance.now();
      yield chunk;
      // The reader parsed the chunk synchronously before asking for the next one.
      this.cpuMs += performance.now() - handedAt;
      if (this.cpuMs > this.limits.maxCpuMs) throw new SummaryBudgetExceeded(`more than ${this.limits.maxCpuMs} ms of parsing`);
    }
  }
}
