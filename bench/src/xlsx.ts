import { statSync } from 'node:fs';
import { stream } from 'exceljs';

/** A small deterministic PRNG (mulberry32), so every run uploads the same workbook. */
function prng(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const words = ['pump', 'filter', 'valve', 'north', 'south', 'depot', 'gate', 'meter', 'sensor', 'panel', 'roof', 'boiler', 'hose', 'seal'];

/**
 * Writes an .xlsx of about `targetBytes` with exceljs's streaming WorkbookWriter: one
 * sheet, a header row and rows of numbers, dates and text (shared strings, as Excel
 * writes them, many of them unique so the file does not compress away). Returns its size.
 */
export async function writeWorkbook(file: string, targetBytes: number): Promise<number> {
  const random = prng(7);
  const workbook = new stream.xlsx.WorkbookWriter({ filename: file, useSharedStrings: true, useStyles: false });
  const sheet = workbook.addWorksheet('Sites');
  sheet.addRow(['site_id', 'name', 'region', 'installed', 'meter_reading', 'notes', 'ref']).commit();
  // About 78 bytes of zipped xlsx per row with this mix (measured); rows to reach the target.
  const rows = Math.ceil(targetBytes / 78);
  for (let i = 1; i <= rows; i++) {
    const word = () => words[Math.floor(random() * words.length)]!;
    sheet
      .addRow([
        i,
        `${word()} ${word()} ${i}`,
        word(),
        new Date(Date.UTC(2020, 0, 1) + Math.floor(random() * 1500) * 86_400_000),
        Math.round(random() * 1e7) / 100,
        `${word()} ${word()} ${word()} ${Math.floor(random() * 1e9).toString(36)}`,
        Math.floor(random() * 2 ** 48).toString(16),
      ])
      .commit();
  }
  sheet.commit();
  await workbook.commit();
  return statSync(file).size;
}
