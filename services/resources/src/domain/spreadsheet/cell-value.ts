/** A header cell's value: its text, or the index of its text among the shared strings. */
export type CellValue = { text: string } | { sharedString: number };

/** How OOXML writes a number in `<v>` (xsd:double without INF and NaN, which Excel never writes). */
const numberText = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;

/**
 * A cell's value from its type (`t`), the text of its `<v>` and of its `<is>` (inline
 * string), as exceljs's reader gave it without styles: numbers as JavaScript writes them
 * (`1.50` → `1.5`, no date detection), booleans as TRUE/FALSE, errors and strings as they
 * are. Undefined for a cell without value. Throws for a value its type cannot have.
 */
export function cellValue(type: string | undefined, value: string | undefined, inline: string | undefined): CellValue | undefined {
  const trimmed = value?.trim() ?? '';
  switch (type) {
    case 's':
      if (trimmed === '') return undefined;
      if (!/^\d+$/.test(trimmed) || !Number.isSafeInteger(Number(trimmed))) throw new Error(`a shared string index is not one: ${trimmed}`);
      return { sharedString: Number(trimmed) };
    case 'inlineStr':
      return { text: inline ?? value ?? '' };
    case 'str': // a formula's text result
    case 'e': // #N/A, #DIV/0!…
    case 'd': // an ISO 8601 date, as some writers put them
      return { text: value ?? '' };
    case 'b':
      if (trimmed === '') return undefined;
      if (trimmed === '1' || trimmed === 'true') return { text: 'TRUE' };
      if (trimmed === '0' || trimmed === 'false') return { text: 'FALSE' };
      throw new Error(`a boolean cell holds ${trimmed}`);
    case undefined:
    case 'n':
      if (trimmed === '') return undefined;
      if (!numberText.test(trimmed)) throw new Error('a number cell holds something else');
      return { text: String(Number(trimmed)) };
    default:
      throw new Error(`a cell has an unknown type ${type}`);
  }
}
