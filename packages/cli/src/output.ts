/** Prints a command's result: the API's JSON with `--json`, else lines for a person. */
export class Output {
  constructor(
    private readonly json: boolean,
    private readonly write: (text: string) => void = (text) => void process.stdout.write(text),
  ) {}

  result(value: unknown, forPeople: () => string): void {
    this.write(this.json ? `${JSON.stringify(value ?? null, null, 2)}\n` : `${forPeople()}\n`);
  }
}

/** Columns padded to their widest cell; `(none)` for no rows. */
export function table(headers: string[], rows: Array<Array<string | number | null>>): string {
  if (rows.length === 0) return '(none)';
  const cells = [headers, ...rows.map((row) => row.map((cell) => (cell === null ? '-' : String(cell))))];
  const widths = headers.map((_, column) => Math.max(...cells.map((row) => row[column]!.length)));
  return cells.map((row) => row.map((cell, column) => cell.padEnd(widths[column]!)).join('  ').trimEnd()).join('\n');
}
