import { appendBounded, type TextBudget } from './limits';
import { parseXmlPart, type XmlPartVisitor } from './xml-part';

/**
 * The texts of the shared strings at `indices`, from the chunks of the shared strings
 * part: each `<si>`'s `<t>` and rich text runs (`<r><t>`) joined, phonetic runs (`<rPh>`)
 * left out. Only the strings asked for are kept, counted against `budget`; reading stops
 * after the last of them. Throws for a malformed part, a text past maxTextChars, or an
 * index past the last string.
 */
export async function pickSharedStrings(chunks: AsyncIterable<Buffer>, indices: ReadonlySet<number>, budget: TextBudget): Promise<Map<number, string>> {
  const visitor = new SharedStringsVisitor(indices, budget);
  if (indices.size > 0) await parseXmlPart(chunks, visitor);
  if (visitor.texts.size < indices.size) throw new Error(`a cell refers to shared string ${visitor.last}; the workbook has ${visitor.count}`);
  return visitor.texts;
}

// Paths below: sst / si / (t | r / t); phonetic runs (si / rPh / t) are left out.
class SharedStringsVisitor implements XmlPartVisitor {
  done = false;
  readonly texts = new Map<number, string>();
  readonly last: number;
  /** How many `<si>` were met. */
  count = 0;
  private current: string | undefined;

  constructor(
    private readonly indices: ReadonlySet<number>,
    private readonly budget: TextBudget,
  ) {
    let last = -1;
    for (const index of indices) last = Math.max(last, index);
    this.last = last;
  }

  open(path: readonly string[]): void {
    if (path.length === 1 && path[0] !== 'sst') throw new Error('the shared strings part is not one');
    if (path.length === 2 && path[1] === 'si') this.current = this.indices.has(this.count) ? '' : undefined;
  }

  close(path: readonly string[]): void {
    if (path.length !== 2 || path[1] !== 'si') return;
    if (this.current !== undefined) this.texts.set(this.count, this.current);
    this.current = undefined;
    if (this.count === this.last) this.done = true;
    this.count += 1;
  }

  text(path: readonly string[], text: string): void {
    if (this.current === undefined || path[path.length - 1] !== 't') return;
    if (path.length === 3 || (path.length === 4 && path[2] === 'r')) {
      this.budget.spend(text.length);
      this.current = appendBounded(this.current, text, 'a shared string');
    }
  }
}
