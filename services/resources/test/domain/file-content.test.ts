import type { ResourceContentType } from '@formcast/contracts';
import { isAppError } from '@formcast/platform';
import { checkFileContent } from '../../src/domain/file-content';
import { docxDocument, jpegImage, mapOverlay, mime, pdfDocument, pngImage, xlsxWorkbook, zipArchive } from '../../../../test/fixtures/resource-files';

async function failure(type: string, bytes: Buffer): Promise<{ code: string; message: string }> {
  try {
    await checkFileContent(type as ResourceContentType, bytes);
  } catch (error) {
    if (isAppError(error)) return { code: error.code, message: error.message };
    throw error;
  }
  throw new Error(`${type} was accepted`);
}

describe('file content checks', () => {
  it.each([
    [mime.png, () => pngImage()],
    [mime.jpeg, () => jpegImage()],
    [mime.pdf, () => pdfDocument()],
    [mime.docx, () => docxDocument()],
    [mime.xml, () => Buffer.from('<?xml version="1.0"?><sites><site id="1">North &amp; co</site></sites>')],
    [mime.textXml, () => Buffer.from('<kml xmlns="http://www.opengis.net/kml/2.2"><Document/></kml>')],
    [mime.text, () => Buffer.from('Plain notes — ünïcödé ✓\n')],
    [mime.text, () => Buffer.alloc(0)],
    [mime.json, () => Buffer.from('{"options": ["a", "b"], "count": 2}')],
    [mime.json, () => Buffer.from('\uFEFF[1, 2, 3]')],
    [mime.json, () => mapOverlay()],
    [mime.mapOverlay, () => mapOverlay()],
  ])('accepts %s whose bytes are what it says', async (type, bytes) => {
    await expect(checkFileContent(type as ResourceContentType, bytes())).resolves.toEqual({ isSpreadsheet: false });
  });

  it('accepts an .xlsx and says it is a spreadsheet', async () => {
    const bytes = await xlsxWorkbook([{ name: 'Sheet1', rows: [['a']] }]);
    await expect(checkFileContent(mime.xlsx, bytes)).resolves.toEqual({ isSpreadsheet: true });
  });

  it.each([
    ['a PNG that is a JPEG', mime.png, () => jpegImage(), /not a PNG image/],
    ['a PNG cut short', mime.png, () => pngImage().subarray(0, 40), /not a PNG image/],
    ['a PNG with only its signature', mime.png, () => pngImage().subarray(0, 8), /not a PNG image/],
    ['a JPEG that is a PNG', mime.jpeg, () => pngImage(), /not a JPEG image/],
    ['a JPEG without its end marker', mime.jpeg, () => jpegImage().subarray(0, -2), /not a JPEG image/],
    ['a JPEG with a broken segment length', mime.jpeg, () => Buffer.from([0xff, 0xd8, 0xff, 0xdb, 0xff, 0xff, 0, 0]), /not a JPEG image/],
    ['a PDF without its trailer', mime.pdf, () => Buffer.from('%PDF-1.7\n1 0 obj <<>> endobj\n'), /%%EOF/],
    ['a PDF that is text', mime.pdf, () => Buffer.from('hello'), /not a PDF document/],
    ['an .xlsx that is a .docx', mime.xlsx, () => docxDocument(), /xl\/workbook\.xml/],
    ['a .docx that is a zip of something else', mime.docx, () => zipArchive([['readme.txt', 'hi']]), /\[Content_Types\]\.xml/],
    ['a .docx that is not a zip', mime.docx, () => pdfDocument(), /not a readable ZIP package/],
    ['text that is not UTF-8', mime.text, () => Buffer.from([0x48, 0x69, 0xff, 0xfe]), /UTF-8/],
    ['JSON that does not parse', mime.json, () => Buffer.from('{"a": '), /not valid JSON/],
    ['JSON in Latin-1', mime.json, () => Buffer.from([0x22, 0xe9, 0x22]), /UTF-8/],
    ['a map overlay that is not JSON', mime.mapOverlay, () => Buffer.from('north=51'), /not valid JSON/],
    ['XML that is not well-formed', mime.xml, () => Buffer.from('<a><b></a>'), /not well-formed XML/],
    ['XML that is only text', mime.textXml, () => Buffer.from('just words'), /not well-formed XML/],
    ['XML with a DOCTYPE', mime.xml, () => Buffer.from('<?xml version="1.0"?><!DOCTYPE a [<!ENTITY x "y">]><a>&x;</a>'), /DOCTYPE/],
    ['XML with an external entity', mime.textXml, () => Buffer.from('<!DOCTYPE a [<!ENTITY xxe SYSTEM "file:///etc/passwd">]><a>&xxe;</a>'), /DOCTYPE/],
  ])('refuses %s with 422 naming the type', async (_name, type, bytes, message) => {
    const error = await failure(type, bytes());
    expect(error.code).toBe('unprocessable');
    expect(error.message).toMatch(/^file\.file_data: the bytes are not /);
    expect(error.message).toMatch(message);
  });

  it('never quotes the file in its messages', async () => {
    const error = await failure(mime.json, Buffer.from('{"secret": "hunter2-and-more" oops}'));
    expect(error.message).not.toContain('hunter2');
  });
});
