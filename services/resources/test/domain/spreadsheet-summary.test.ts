import { readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { SummaryBudgetExceeded } from '../../src/domain/spreadsheet/limits';
import { defaultSummaryBudget, fileBaseName, summarizeSpreadsheet } from '../../src/domain/spreadsheet-summary';
import * as fixtures from '../../../../test/fixtures/resource-files';
import { handMadeXlsx, realSpreadsheetPath, xlsxCommentBomb, xlsxWorkbook } from '../../../../test/fixtures/resource-files';

/** Ids `id-1`, `id-2`… in the order they are asked for. */
function countingIds(): () => string {
  let n = 0;
  return () => `id-${++n}`;
}

describe('spreadsheet summary', () => {
  it('describes the real test_resource.xlsx as the real product did', async () => {
    const tables = await summarizeSpreadsheet('test_resource.xlsx', readFileSync(realSpreadsheetPath), countingIds());
    expect(tables).toEqual([
      {
        tableName: 'test_resource.Sheet1',
        sheetName: 'Sheet1',
        id: expect.any(String),
        columns: [{ name: 'test_options', number: 1, id: expect.any(String) }],
      },
    ]);
    const ids = [tables[0]!.id, tables[0]!.columns[0]!.id];
    expect(new Set(ids).size).toBe(2);
  });

  it('gives one table per sheet in workbook order, columns numbered by their position', async () => {
    const bytes = await xlsxWorkbook([
      { name: 'Sites & Crews', rows: [['site', null, 'crew', 42], ['North', null, 'A', 1]] },
      { name: 'Empty', rows: [] },
      { name: 'Parts', rows: [['part_no', 'qty'], ['P-1', 3]] },
    ]);
    const tables = await summarizeSpreadsheet('inventory.2024.xlsx', bytes, countingIds());
    expect(tables.map((t) => [t.tableName, t.sheetName])).toEqual([
      ['inventory.2024.Sites & Crews', 'Sites & Crews'],
      ['inventory.2024.Empty', 'Empty'],
      ['inventory.2024.Parts', 'Parts'],
    ]);
    expect(tables[0]!.columns.map((c) => [c.name, c.number])).toEqual([
      ['site', 1],
      ['crew', 3],
      ['42', 4],
    ]);
    expect(tables[1]!.columns).toEqual([]);
    expect(tables[2]!.columns.map((c) => c.name)).toEqual(['part_no', 'qty']);
    const allIds = tables.flatMap((t) => [t.id, ...t.columns.map((c) => c.id)]);
    expect(new Set(allIds).size).toBe(allIds.length);
  });

  it('streams each sheet only up to its first row: a large sheet is never parsed whole', async () => {
    // 60 000 rows (several MB of XML), then a tail that is not even well-formed: a reader
    // holding or parsing the whole sheet would fail on it.
    const sheet =
      '<row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="inlineStr"><is><t>depth_m</t></is></c></row>' +
      Array.from({ length: 60_000 }, (_, i) => `<row r="${i + 2}"><c r="A${i + 2}"><v>9</v></c><c r="B${i + 2}"><v>0.25</v></c></row>`).join('') +
      '<row r="60002"><c r="A2"><v>1</v></row></oops>';
    const tables = await summarizeSpreadsheet('readings.xlsx', handMadeXlsx(sheet, ['station']), countingIds());
    expect(tables).toEqual([
      {
        tableName: 'readings.Readings',
        sheetName: 'Readings',
        id: 'id-1',
        columns: [
          { name: 'station', number: 1, id: 'id-2' },
          { name: 'depth_m', number: 2, id: 'id-3' },
        ],
      },
    ]);
  });

  it('writes nothing to disk, even for a workbook whose sheets come first or that fails', async () => {
    const ownTempFiles = () => readdirSync(tmpdir()).filter((name) => name.startsWith(`tmp-${process.pid}-`)).length;
    const before = ownTempFiles();
    // exceljs writes its sheets before xl/workbook.xml, the order that made its reader spill them.
    const sheetsFirst = await xlsxWorkbook([{ name: 'A', rows: [['x']] }, { name: 'B', rows: [['y']] }]);
    expect((await summarizeSpreadsheet('s.xlsx', sheetsFirst, countingIds())).map((t) => t.columns[0]?.name)).toEqual(['x', 'y']);
    await expect(summarizeSpreadsheet('bad.xlsx', handMadeXlsx('<row r="1"><c r="A1"></row>'), countingIds())).rejects.toThrow();
    expect(ownTempFiles()).toBe(before);
  });

  it('refuses a part that inflates beyond its declared size (a zip bomb\'s trick)', async () => {
    const sheet = '<row r="1"><c r="A1" t="inlineStr"><is><t>a</t></is></c></row>';
    const bytes = handMadeXlsx(sheet, [], { understate: 'xl/worksheets/sheet1.xml' });
    await expect(summarizeSpreadsheet('bomb.xlsx', bytes, countingIds())).rejects.toThrow(/too many bytes/);
  });

  it('stops a workbook whose first row hides megabytes of comments at the byte budget, and at the CPU budget', async () => {
    const bomb = xlsxCommentBomb(8 * 1024 * 1024);
    expect(bomb.length).toBeLessThan(256 * 1024);
    await expect(summarizeSpreadsheet('bomb.xlsx', bomb, countingIds(), { maxBytes: 1024 * 1024, maxCpuMs: 60_000 })).rejects.toThrow(
      new SummaryBudgetExceeded('more than 1048576 bytes to read'),
    );
    await expect(summarizeSpreadsheet('bomb.xlsx', bomb, countingIds(), { maxBytes: 1024 * 1024 * 1024, maxCpuMs: 10 })).rejects.toThrow(/more than 10 ms of parsing/);
    // Within budgets, the same workbook is summarized.
    const tables = await summarizeSpreadsheet('bomb.xlsx', bomb, countingIds(), { maxBytes: 1024 * 1024 * 1024, maxCpuMs: 60_000 });
    expect(tables[0]!.columns.map((c) => c.name)).toEqual(['after the comments']);
    // The real workbook fits the default budget.
    expect(await summarizeSpreadsheet('test_resource.xlsx', readFileSync(realSpreadsheetPath), countingIds(), defaultSummaryBudget)).toHaveLength(1);
  });

  it('reads a workbook without shared strings or relationships', async () => {
    const { zipArchive } = fixtures;
    const main = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
    const bytes = zipArchive([
      ['[Content_Types].xml', '<Types/>'],
      ['xl/workbook.xml', `<workbook xmlns="${main}"><sheets><sheet name="Only" sheetId="1"/></sheets></workbook>`],
      ['xl/worksheets/sheet1.xml', `<worksheet xmlns="${main}"><sheetData><row r="1"><c r="B1"><v>7</v></c></row></sheetData></worksheet>`],
    ]);
    const tables = await summarizeSpreadsheet('plain.xlsx', bytes, countingIds());
    expect(tables.map((t) => t.columns.map((c) => [c.name, c.number]))).toEqual([[['7', 2]]]);
  });

  it('fails on bytes that are not a workbook', async () => {
    await expect(summarizeSpreadsheet('x.xlsx', Buffer.from('not a zip at all'), countingIds())).rejects.toThrow();
  });

  it.each([
    ['test_resource.xlsx', 'test_resource'],
    ['report.final.xlsx', 'report.final'],
    ['no-extension', 'no-extension'],
    ['.hidden', '.hidden'],
    ['folder/sub\\name.xlsx', 'name'],
  ])('takes %s as base name %s', (name, base) => {
    expect(fileBaseName(name)).toBe(base);
  });
});
