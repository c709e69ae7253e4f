import { defaultSummaryBudget, summarizeSpreadsheet } from '../../src/domain/spreadsheet-summary';
import { cellValue } from '../../src/domain/spreadsheet/cell-value';
import { columnOf } from '../../src/domain/spreadsheet/first-row';
import { resolveTarget } from '../../src/domain/spreadsheet/workbook-relationships';
import { zipArchive } from '../../../../test/fixtures/resource-files';

const main = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const rel = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';

interface SheetSpec {
  name: string;
  /** The relationship's target, as the workbook writes it. */
  target: string;
  /** Where that target lands in the archive. */
  part: string;
  /** The whole worksheet part; omitted for a relationship without a part. */
  xml?: string;
  type?: string;
}

const worksheet = (sheetData: string) => `<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="${main}"><sheetData>${sheetData}</sheetData></worksheet>`;
const sst = (items: string) => `<?xml version="1.0" encoding="UTF-8"?><sst xmlns="${main}">${items}</sst>`;
const sheet = (name: string, sheetData: string, n = 1): SheetSpec => ({
  name,
  target: `worksheets/sheet${n}.xml`,
  part: `xl/worksheets/sheet${n}.xml`,
  xml: worksheet(sheetData),
});

/**
 * A workbook written part by part: the sheets in workbook order as given, their parts in
 * the archive in `partOrder` (indices into `sheets`), shared strings as given.
 */
function workbook(
  sheets: SheetSpec[],
  options: { sharedStrings?: string; partOrder?: number[]; replace?: Record<string, string>; understate?: string; deflate?: boolean } = {},
): Buffer {
  const rels =
    `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">` +
    sheets.map((s, i) => `<Relationship Id="rId${i + 1}" Type="${rel}/${s.type ?? 'worksheet'}" Target="${s.target}"/>`).join('') +
    `<Relationship Id="rIdS" Type="${rel}/sharedStrings" Target="sharedStrings.xml"/></Relationships>`;
  const book =
    `<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="${main}" xmlns:r="${rel}"><sheets>` +
    sheets.map((s, i) => `<sheet name="${s.name}" sheetId="${i + 1}" r:id="rId${i + 1}"/>`).join('') +
    '</sheets><definedNames/></workbook>';
  const order = options.partOrder ?? sheets.map((_, i) => i);
  const entries: Array<[string, string]> = [
    ['[Content_Types].xml', '<Types/>'],
    ...order.flatMap((i): Array<[string, string]> => (sheets[i]!.xml === undefined ? [] : [[sheets[i]!.part, sheets[i]!.xml!]])),
    ['xl/workbook.xml', book],
    ['xl/_rels/workbook.xml.rels', rels],
    ...(options.sharedStrings === undefined ? [] : [['xl/sharedStrings.xml', options.sharedStrings] as [string, string]]),
  ];
  const replaced = entries.map(([name, content]): [string, string] => [name, options.replace?.[name] ?? content]);
  return zipArchive(replaced, { deflate: options.deflate ?? true, understate: options.understate });
}

/** Ids `id-1`, `id-2`… in the order they are asked for. */
function countingIds(): () => string {
  let n = 0;
  return () => `id-${++n}`;
}

async function columnsOf(bytes: Buffer): Promise<Array<Array<[string, number]>>> {
  const tables = await summarizeSpreadsheet('w.xlsx', bytes, countingIds());
  return tables.map((table) => table.columns.map((column): [string, number] => [column.name, column.number]));
}

/** Sets the size an entry's central directory record declares it inflates to. */
function declareSize(zip: Buffer, name: string, size: number): Buffer {
  const patched = Buffer.from(zip);
  const end = patched.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  let offset = patched.readUInt32LE(end + 16);
  while (patched.readUInt32LE(offset) === 0x02014b50) {
    const nameLength = patched.readUInt16LE(offset + 28);
    const entryName = patched.toString('utf8', offset + 46, offset + 46 + nameLength);
    if (entryName === name) patched.writeUInt32LE(size, offset + 24);
    offset += 46 + nameLength + patched.readUInt16LE(offset + 30) + patched.readUInt16LE(offset + 32);
  }
  return patched;
}

describe('spreadsheet summary: cells of the first row', () => {
  it('reads inline strings, rich text runs, and leaves phonetic runs out', async () => {
    const row =
      '<row r="1">' +
      '<c r="A1" t="inlineStr"><is><t>plain</t></is></c>' +
      '<c r="B1" t="inlineStr"><is><r><rPr><b/></rPr><t>bold</t></r><r><t xml:space="preserve"> and not</t></r><rPh sb="0" eb="1"><t>PHONETIC</t></rPh></is></c>' +
      '<c r="C1" t="inlineStr"><is><t><![CDATA[a<b]]></t></is></c>' +
      '</row>';
    expect(await columnsOf(workbook([sheet('S', row)]))).toEqual([[['plain', 1], ['bold and not', 2], ['a<b', 3]]]);
  });

  it('counts positions for cells without r, after the cell before them', async () => {
    const row = '<row><c t="inlineStr"><is><t>a</t></is></c><c t="inlineStr"><is><t>b</t></is></c><c r="E1" t="inlineStr"><is><t>e</t></is></c><c t="inlineStr"><is><t>f</t></is></c></row>';
    expect(await columnsOf(workbook([sheet('S', row)]))).toEqual([[['a', 1], ['b', 2], ['e', 5], ['f', 6]]]);
  });

  it('numbers columns past Z (AA = 27) and orders them by column', async () => {
    const row = '<row r="1"><c r="AB1"><v>2</v></c><c r="AA1"><v>1</v></c><c r="XFD1"><v>3</v></c></row>';
    expect(await columnsOf(workbook([sheet('S', row)]))).toEqual([[['1', 27], ['2', 28], ['3', 16_384]]]);
  });

  it('writes numbers as JavaScript does, booleans as TRUE/FALSE, errors and formula text results as they are', async () => {
    const row =
      '<row r="1">' +
      '<c r="A1"><v>1.50</v></c><c r="B1" t="n"><v>1E3</v></c><c r="C1" s="3"><v>45123</v></c>' +
      '<c r="D1" t="b"><v>1</v></c><c r="E1" t="b"><v>0</v></c><c r="F1" t="e"><v>#N/A</v></c>' +
      '<c r="G1" t="str"><f>A1&amp;"x"</f><v>1.5x</v></c><c r="H1"><f>1+1</f><v>2</v></c>' +
      '</row>';
    expect(await columnsOf(workbook([sheet('S', row)]))).toEqual([
      [['1.5', 1], ['1000', 2], ['45123', 3], ['TRUE', 4], ['FALSE', 5], ['#N/A', 6], ['1.5x', 7], ['2', 8]],
    ]);
  });

  it('leaves out blank and whitespace-only cells, cells without value and formulas without result', async () => {
    const row =
      '<row r="1"><c r="A1" s="1"/><c r="B1" t="inlineStr"><is><t>  </t></is></c><c r="C1"><f>A1</f></c>' +
      '<c r="D1" t="str"><v/></c><c r="E1"><v></v></c><c r="F1" t="inlineStr"><is><t>kept</t></is></c></row>';
    expect(await columnsOf(workbook([sheet('S', row)]))).toEqual([[['kept', 6]]]);
  });

  it('decodes entities as XML does, once', async () => {
    const row = '<row r="1"><c r="A1" t="inlineStr"><is><t>Sites &amp; Crews &#x41;&#66; &amp;lt;</t></is></c></row>';
    expect(await columnsOf(workbook([sheet('S', row)]))).toEqual([[['Sites & Crews AB &lt;', 1]]]);
  });

  it('takes the first row element, even an empty one or one further down than row 1', async () => {
    const later = '<row r="3"><c r="B3" t="inlineStr"><is><t>third</t></is></c></row><row r="4"><c r="A4"><v>4</v></c></row>';
    const empty = '<row r="1" ht="20" customHeight="1"/><row r="2"><c r="A2"><v>2</v></c></row>';
    expect(await columnsOf(workbook([sheet('Later', later, 1), sheet('Empty', empty, 2), sheet('None', '', 3)]))).toEqual([[['third', 2]], [], []]);
  });

  it('reads elements whatever their namespace prefix', async () => {
    const xml =
      `<x:worksheet xmlns:x="${main}"><x:sheetData><x:row r="1"><x:c r="A1" t="inlineStr"><x:is><x:t>pfx</x:t></x:is></x:c></x:row></x:sheetData></x:worksheet>`;
    expect(await columnsOf(workbook([{ ...sheet('S', ''), xml }]))).toEqual([[['pfx', 1]]]);
  });

  it.each([
    ['a cell past XFD', '<row r="1"><c r="XFE1"><v>1</v></c></row>', /past column/],
    ['a 16,385th cell counted without r', `<row r="1"><c r="XFD1"><v>1</v></c><c><v>2</v></c></row>`, /past column/],
    ['two cells in one column', '<row r="1"><c r="A1"><v>1</v></c><c r="A1"><v>2</v></c></row>', /column 1/],
    ['a reference that is not one', '<row r="1"><c r="1A"><v>1</v></c></row>', /reference/],
    ['a number cell holding text', '<row r="1"><c r="A1"><v>abc</v></c></row>', /number/],
    ['a boolean holding 2', '<row r="1"><c r="A1" t="b"><v>2</v></c></row>', /boolean/],
    ['an unknown cell type', '<row r="1"><c r="A1" t="zz"><v>1</v></c></row>', /unknown type/],
    ['a cell text over 32 KiB', `<row r="1"><c r="A1" t="inlineStr"><is><t>${'x'.repeat(32 * 1024 + 1)}</t></is></c></row>`, /longer than 32768/],
    ['a cell text over 32 KiB in runs', `<row r="1"><c r="A1" t="inlineStr"><is>${`<r><t>${'x'.repeat(20_000)}</t></r>`.repeat(2)}</is></c></row>`, /longer than 32768/],
    ['nesting 65 levels deep', `<row r="1"><c r="A1"><extLst>${'<x>'.repeat(60)}${'</x>'.repeat(60)}</extLst></c></row>`, /deeper than 64/],
    ['a comment over 1 MiB', `<!--${'-x'.repeat(600_000)}--><row r="1"/>`, /token longer/],
    ['a first row cut short', '<row r="1"><c r="A1"><v>1</v></c>', /./],
  ])('refuses %s', async (_, sheetData, message) => {
    const bytes = workbook([sheet('S', sheetData)]);
    // No CPU budget: each of these is refused by its own bound (saxes takes seconds over a 1 MiB comment).
    await expect(summarizeSpreadsheet('w.xlsx', bytes, countingIds(), { ...defaultSummaryBudget, maxCpuMs: 600_000 })).rejects.toThrow(message);
  });

  it('refuses a sheet part that ends before its first row does', async () => {
    const cut = `<worksheet xmlns="${main}"><sheetData><row r="1"><c r="A1"><v>1</v></c>`;
    await expect(summarizeSpreadsheet('w.xlsx', workbook([{ ...sheet('S', ''), xml: cut }]), countingIds())).rejects.toThrow();
  });

  it('refuses a sheet part that is not a worksheet', async () => {
    const xml = `<chartsheet xmlns="${main}"/>`;
    await expect(summarizeSpreadsheet('w.xlsx', workbook([{ ...sheet('S', ''), xml }]), countingIds())).rejects.toThrow(/not a worksheet/);
  });
});

describe('spreadsheet summary: sheets of the workbook', () => {
  it('gives the sheets in workbook order whatever the archive order and part names', async () => {
    const bytes = workbook(
      [
        { name: 'Zeta', target: 'worksheets/data.xml', part: 'xl/worksheets/data.xml', xml: worksheet('<row r="1"><c r="A1" t="inlineStr"><is><t>z</t></is></c></row>') },
        { name: 'Alpha', target: '/xl/other/Alpha%20Sheet.xml', part: 'xl/other/Alpha Sheet.xml', xml: worksheet('<row r="1"><c r="A1" t="inlineStr"><is><t>a</t></is></c></row>') },
        { name: 'Mid', target: './worksheets/../worksheets/sheet9.xml', part: 'xl/worksheets/sheet9.xml', xml: worksheet('<row r="1"><c r="A1" t="inlineStr"><is><t>m</t></is></c></row>') },
      ],
      { partOrder: [2, 1, 0] },
    );
    const tables = await summarizeSpreadsheet('book.xlsx', bytes, countingIds());
    expect(tables).toEqual([
      { tableName: 'book.Zeta', sheetName: 'Zeta', id: 'id-1', columns: [{ name: 'z', number: 1, id: 'id-2' }] },
      { tableName: 'book.Alpha', sheetName: 'Alpha', id: 'id-3', columns: [{ name: 'a', number: 1, id: 'id-4' }] },
      { tableName: 'book.Mid', sheetName: 'Mid', id: 'id-5', columns: [{ name: 'm', number: 1, id: 'id-6' }] },
    ]);
  });

  it('leaves chart sheets out', async () => {
    const bytes = workbook([
      { name: 'Chart', target: 'chartsheets/sheet1.xml', part: 'xl/chartsheets/sheet1.xml', xml: `<chartsheet xmlns="${main}"/>`, type: 'chartsheet' },
      sheet('Data', '<row r="1"><c r="A1"><v>1</v></c></row>'),
    ]);
    expect((await summarizeSpreadsheet('w.xlsx', bytes, countingIds())).map((t) => t.sheetName)).toEqual(['Data']);
  });

  it('decodes entities in sheet names', async () => {
    const bytes = workbook([sheet('Sites &amp; Crews', '')]);
    expect((await summarizeSpreadsheet('w.xlsx', bytes, countingIds())).map((t) => t.tableName)).toEqual(['w.Sites & Crews']);
  });

  it.each([
    ['a sheet whose part is missing', [{ name: 'Gone', target: 'worksheets/gone.xml', part: 'xl/worksheets/gone.xml' }], {}, /no xl\/worksheets\/gone\.xml/],
    ['two sheets sharing one part', [sheet('A', ''), { ...sheet('B', ''), xml: undefined }], {}, /another sheet's part/],
    ['a DOCTYPE in the workbook', [sheet('A', '')], { 'xl/workbook.xml': `<!DOCTYPE workbook [<!ENTITY x "y">]><workbook xmlns="${main}"/>` }, /DOCTYPE/],
    ['a DOCTYPE in a sheet', [sheet('A', '')], { 'xl/worksheets/sheet1.xml': `<!DOCTYPE w><worksheet xmlns="${main}"/>` }, /DOCTYPE/],
    ['an undefined entity', [sheet('A', '<row r="1"><c r="A1" t="inlineStr"><is><t>&bomb;</t></is></c></row>')], {}, /entity/],
    ['a malformed workbook', [sheet('A', '')], { 'xl/workbook.xml': `<workbook xmlns="${main}"><sheets><sheet name="A" r:id="rId1"></sheets></workbook>` }, /./],
    ['a workbook part that is not one', [sheet('A', '')], { 'xl/workbook.xml': '<Types/>' }, /not a workbook/],
    ['a sheet without name', [sheet('', '')], {}, /without a name/],
    ['a target outside the package', [{ ...sheet('A', ''), target: 'https://example.com/sheet1.xml' }], {}, /not a part of the package/],
  ] as Array<[string, SheetSpec[], Record<string, string>, RegExp]>)('refuses %s', async (_, sheets, replace, message) => {
    await expect(summarizeSpreadsheet('w.xlsx', workbook(sheets, { replace }), countingIds())).rejects.toThrow(message);
  });

  it('refuses a sheet whose relationship is missing', async () => {
    const bytes = workbook([sheet('A', '')], {
      replace: { 'xl/workbook.xml': `<workbook xmlns="${main}" xmlns:r="${rel}"><sheets><sheet name="A" sheetId="1" r:id="rId7"/></sheets></workbook>` },
    });
    await expect(summarizeSpreadsheet('w.xlsx', bytes, countingIds())).rejects.toThrow(/no relationship rId7/);
  });
});

describe('spreadsheet summary: shared strings', () => {
  const strings = sst(
    '<si><t>zero</t></si>' +
      '<si><r><t>ri</t></r><r><rPr><i/></rPr><t xml:space="preserve">ch one</t></r><rPh sb="0" eb="2"><t>ルビ</t></rPh><phoneticPr fontId="1"/></si>' +
      '<si><t>漢字</t><rPh sb="0" eb="2"><t>カンジ</t></rPh></si>' +
      '<si><t>  </t></si>' +
      '<si><t>A &amp; B</t></si>',
  );

  it('joins rich text runs, leaves phonetic runs out, and leaves blank strings out', async () => {
    const row = '<row r="1"><c r="A1" t="s"><v>2</v></c><c r="B1" t="s"><v>1</v></c><c r="C1" t="s"><v>3</v></c><c r="D1" t="s"><v>4</v></c><c r="E1" t="s"><v>2</v></c></row>';
    expect(await columnsOf(workbook([sheet('S', row)], { sharedStrings: strings }))).toEqual([[['漢字', 1], ['rich one', 2], ['A & B', 4], ['漢字', 5]]]);
  });

  it('picks shared strings for every sheet', async () => {
    const bytes = workbook([sheet('A', '<row r="1"><c r="A1" t="s"><v>4</v></c></row>', 1), sheet('B', '<row r="1"><c r="B1" t="s"><v>0</v></c></row>', 2)], {
      sharedStrings: strings,
    });
    expect(await columnsOf(bytes)).toEqual([[['A & B', 1]], [['zero', 2]]]);
  });

  it('stops after the last string it needs: what follows is not read', async () => {
    const bytes = workbook([sheet('S', '<row r="1"><c r="A1" t="s"><v>1</v></c></row>')], {
      sharedStrings: sst('<si><t>a</t></si><si><t>b</t></si>') + '<si><t>not even well-formed</oops>',
    });
    expect(await columnsOf(bytes)).toEqual([[['b', 1]]]);
  });

  it('does not read the shared strings when no first-row cell uses them', async () => {
    const bytes = workbook([sheet('S', '<row r="1"><c r="A1"><v>1</v></c></row><row r="2"><c r="A2" t="s"><v>0</v></c></row>')], {
      sharedStrings: '<sst><si>broken',
    });
    expect(await columnsOf(bytes)).toEqual([[['1', 1]]]);
  });

  it.each([
    ['an index past the last string', sst('<si><t>a</t></si>'), '<v>1</v>', /shared string 1; the workbook has 1/],
    ['an index that is not a number', sst('<si><t>a</t></si>'), '<v>x</v>', /index/],
    ['a DOCTYPE', `<!DOCTYPE sst><sst xmlns="${main}"><si><t>a</t></si></sst>`, '<v>0</v>', /DOCTYPE/],
    ['a part that is not one', `<Types><si><t>a</t></si></Types>`, '<v>0</v>', /not one/],
    ['a part cut before the string', `<sst xmlns="${main}"><si><t>a`, '<v>0</v>', /./],
    ['no shared strings part', undefined, '<v>0</v>', /no xl\/sharedStrings\.xml/],
    ['a string over 32 KiB', sst(`<si><t>${'y'.repeat(33_000)}</t></si>`), '<v>0</v>', /longer than 32768/],
  ])('refuses %s', async (_, sharedStrings, value, message) => {
    const bytes = workbook([sheet('S', `<row r="1"><c r="A1" t="s">${value}</c></row>`)], { sharedStrings });
    await expect(summarizeSpreadsheet('w.xlsx', bytes, countingIds())).rejects.toThrow(message);
  });
});

describe('spreadsheet summary: archive', () => {
  it('refuses shared strings or a workbook that inflate beyond their declared size', async () => {
    const row = '<row r="1"><c r="A1" t="s"><v>0</v></c></row>';
    for (const part of ['xl/sharedStrings.xml', 'xl/workbook.xml', 'xl/_rels/workbook.xml.rels']) {
      const bytes = workbook([sheet('S', row)], { sharedStrings: sst('<si><t>a</t></si>'), understate: part });
      await expect(summarizeSpreadsheet('w.xlsx', bytes, countingIds())).rejects.toThrow(/too many bytes/);
    }
  });

  it('stops inflating a sheet at the end of its first row', async () => {
    // The sheet declares 1 MB but inflates to about 4 MB: inflating it whole would fail.
    const rows = Array.from({ length: 100_000 }, (_, i) => `<row r="${i + 2}"><c r="A${i + 2}"><v>${i}</v></c></row>`).join('');
    const xml = worksheet(`<row r="1"><c r="A1" t="inlineStr"><is><t>head</t></is></c></row>${rows}`);
    expect(xml.length).toBeGreaterThan(3_000_000);
    const bytes = declareSize(workbook([{ ...sheet('S', ''), xml }]), 'xl/worksheets/sheet1.xml', 1_000_000);
    expect(await columnsOf(bytes)).toEqual([[['head', 1]]]);
  });

  it('refuses a part whose bytes are corrupt, stored or deflated', async () => {
    const row = '<row r="1"><c r="A1"><v>1</v></c></row>';
    const stored = workbook([sheet('S', row)], { deflate: false });
    stored.write('\u0000\u0001', stored.indexOf('<sheetData>'), 'latin1'); // characters XML does not allow
    await expect(summarizeSpreadsheet('w.xlsx', stored, countingIds())).rejects.toThrow(/character/);
    const deflated = workbook([sheet('S', row)]);
    // The sheet's deflated data follows the name in its local header (no extra field).
    const dataAt = deflated.indexOf('xl/worksheets/sheet1.xml') + 'xl/worksheets/sheet1.xml'.length;
    deflated.fill(0xff, dataAt, dataAt + 8);
    await expect(summarizeSpreadsheet('w.xlsx', deflated, countingIds())).rejects.toThrow();
  });
});

describe('spreadsheet reading helpers', () => {
  it.each([
    ['A1', 1],
    ['z9', 26],
    ['AA10', 27],
    ['AZ1', 52],
    ['XFD1048576', 16_384],
  ])('column of %s is %d', (reference, column) => {
    expect(columnOf(reference)).toBe(column);
  });

  it.each(['', '1', 'A', 'ABCD1', 'A-1'])('refuses the reference %j', (reference) => {
    expect(() => columnOf(reference)).toThrow();
  });

  it.each([
    ['worksheets/sheet1.xml', 'xl/worksheets/sheet1.xml'],
    ['/xl/worksheets/sheet1.xml', 'xl/worksheets/sheet1.xml'],
    ['../custom/s.xml', 'custom/s.xml'],
    ['worksheets/My%20Sheet.xml', 'xl/worksheets/My Sheet.xml'],
    ['worksheets\\sheet2.xml', 'xl/worksheets/sheet2.xml'],
  ])('resolves the target %s to %s', (target, part) => {
    expect(resolveTarget(target)).toBe(part);
  });

  it('gives cell values by type', () => {
    expect(cellValue('s', ' 12 ', undefined)).toEqual({ sharedString: 12 });
    expect(cellValue(undefined, '-0.50', undefined)).toEqual({ text: '-0.5' });
    expect(cellValue('inlineStr', undefined, 'x')).toEqual({ text: 'x' });
    expect(cellValue('d', '2024-01-02T00:00:00Z', undefined)).toEqual({ text: '2024-01-02T00:00:00Z' });
    expect(cellValue('b', 'true', undefined)).toEqual({ text: 'TRUE' });
    expect(cellValue('n', undefined, undefined)).toBeUndefined();
    expect(() => cellValue('n', 'Infinity', undefined)).toThrow();
  });
});
