import { isOfficePackage, maxInflatedWorkbookBytes, readPackageEntries, workbookWithinBounds, type PackageEntry } from '../../src/domain/office-package';
import { docxDocument, pdfDocument, zipArchive } from '../../../../test/fixtures/resource-files';

const entries = (...list: Array<[string, number]>) =>
  new Map<string, PackageEntry>(list.map(([name, size]) => [name, { name, compressedSize: 1, uncompressedSize: size }]));

describe('Office packages', () => {
  it('lists a package\'s entries from its central directory', async () => {
    const found = await readPackageEntries(docxDocument());
    expect([...(found?.keys() ?? [])]).toEqual(['[Content_Types].xml', '_rels/.rels', 'word/document.xml']);
  });

  it('answers null for bytes that are no ZIP archive', async () => {
    expect(await readPackageEntries(pdfDocument())).toBeNull();
    expect(await readPackageEntries(docxDocument().subarray(0, 100))).toBeNull();
  });

  it('needs [Content_Types].xml and the main part of the kind', async () => {
    expect(await isOfficePackage(docxDocument(), 'document')).toMatchObject({ ok: true });
    expect(await isOfficePackage(docxDocument(), 'spreadsheet')).toEqual({ ok: false, reason: 'the package has no xl/workbook.xml' });
    const noTypes = zipArchive([['word/document.xml', '<w:document/>']]);
    expect(await isOfficePackage(noTypes, 'document')).toEqual({ ok: false, reason: 'the package has no [Content_Types].xml' });
  });

  it('bounds what a workbook\'s sheets and shared strings may inflate to', () => {
    expect(workbookWithinBounds(entries(['xl/worksheets/sheet1.xml', 500 * 1024 * 1024], ['xl/sharedStrings.xml', 100 * 1024 * 1024]))).toBe(true);
    expect(workbookWithinBounds(entries(['xl/worksheets/sheet1.xml', maxInflatedWorkbookBytes], ['xl/worksheets/sheet2.xml', 1]))).toBe(false);
    expect(workbookWithinBounds(entries(['xl/sharedStrings.xml', 300 * 1024 * 1024]))).toBe(false);
    expect(workbookWithinBounds(entries(['xl/media/video.mp4', 3 * maxInflatedWorkbookBytes]))).toBe(true);
  });
});
