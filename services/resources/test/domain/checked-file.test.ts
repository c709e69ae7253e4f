import { readFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { isAppError } from '@formcast/platform';
import { allowedContentType } from '../../src/domain/content-type';
import { checkFile } from '../../src/domain/checked-file';
import { mime, pngImage, realSpreadsheetPath, zipArchive } from '../../../../test/fixtures/resource-files';

const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const rules = { maxFileBytes: 1024 * 1024 };

async function codeOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    if (isAppError(error)) return `${error.code}: ${error.message}`;
    throw error;
  }
  return 'accepted';
}

describe('checking a file', () => {
  it('derives the summary, a UUID identifier and the digest of an .xlsx', async () => {
    const bytes = readFileSync(realSpreadsheetPath);
    const file = await checkFile(
      { file_name: 'test_resource.xlsx', content_type: mime.xlsx }, bytes,
      rules,
    );
    expect(file.bytes.equals(bytes)).toBe(true);
    expect(file.sha256).toBe(createHash('sha256').update(bytes).digest('hex'));
    expect(file.identifier).toMatch(uuid);
    expect(file.contentSummary).toHaveLength(1);
    expect(file.contentSummary[0]!.id).toMatch(uuid);
    expect(file.contentSummary[0]!.columns[0]!.id).toMatch(uuid);
  });

  it('gives other types an empty summary, and keeps the file name as given', async () => {
    const file = await checkFile(
      { file_name: '../../etc/passwd.png', content_type: 'Image/PNG; charset=binary' }, pngImage(),
      rules,
    );
    expect(file).toMatchObject({ originalFilename: '../../etc/passwd.png', contentType: 'image/png', contentSummary: [] });
  });

  it('refuses an empty file with 400 naming file_data, whatever its type', async () => {
    for (const contentType of [mime.text, mime.json, 'image/gif']) {
      expect(await codeOf(checkFile({ file_name: 'empty', content_type: contentType }, Buffer.alloc(0), rules))).toBe(
        'invalid: file.file_data: the file is empty; send its bytes in Base64',
      );
    }
    expect(await codeOf(checkFile({ file_name: 'one.txt', content_type: mime.text }, Buffer.from('x'), rules))).toBe('accepted');
  });

  it('refuses a file over the limit with 413 before looking at it', async () => {
    const data = Buffer.alloc(2000, 1);
    expect(await codeOf(checkFile({ file_name: 'a.txt', content_type: mime.text }, data, { maxFileBytes: 1999 }))).toBe(
      'too_large: file.file_data: the file is 2000 bytes; the largest accepted is 1999 bytes',
    );
    expect(await codeOf(checkFile({ file_name: 'a.txt', content_type: mime.text }, data, { maxFileBytes: 2000 }))).toBe('accepted');
  });

  it('refuses a type outside the allowed list with 415 naming the allowed ones', async () => {
    const outcome = await codeOf(checkFile({ file_name: 'a.gif', content_type: 'image/gif' }, Buffer.from('R0lG', 'base64'), rules));
    expect(outcome).toMatch(/^unsupported_media_type: file\.content_type: "image\/gif" is not accepted; use one of image\/png, image\/jpeg/);
    expect(outcome).toContain('application/vnd.device-magic.map-overlay.json');
  });

  it('refuses an .xlsx package whose sheets cannot be read with 422', async () => {
    const broken = zipArchive([
      ['[Content_Types].xml', '<Types/>'],
      ['xl/workbook.xml', '<workbook><sheets><sheet name="S" sheetId="1" r:id="rId1"/></sheets>'],
      ['xl/worksheets/sheet1.xml', '<worksheet><sheetData><row r="1"><c r="A1"></row></sheetData></worksheet>'],
    ]);
    const outcome = await codeOf(checkFile({ file_name: 'b.xlsx', content_type: mime.xlsx }, broken, rules));
    expect(outcome).toMatch(/^unprocessable: file\.file_data: the spreadsheet cannot be read/);
  });

  it.each(['IMAGE/JPEG', 'text/plain; charset=utf-8', ' application/json '])('takes %s as an allowed type', (given) => {
    expect(() => allowedContentType(given)).not.toThrow();
  });
});
