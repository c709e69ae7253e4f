import { parse as parseQueryString } from 'qs';
import { Base64Decoder, exactSizeGraceBytes } from '../../src/http/resource-upload/base64-decoder';
import { otherFieldsLimit } from '../../src/http/resource-upload/field-budget';
import { formUploadParser } from '../../src/http/resource-upload/form-upload-parser';
import { decodedAsBefore, fileDataOf, refusal, withDecodedFiles } from './decoded';
import { randomBytes, splittings } from './pieces';

function parse(pieces: string[], maxBytes = 1 << 20): unknown {
  const parser = formUploadParser({ maxBytes });
  for (const piece of pieces) parser.write(piece);
  return parser.end();
}

/** What readBody (qs) made of the body before. */
function parsedAsBefore(body: string): unknown {
  return parseQueryString(body, { depth: 8, parameterLimit: 1000, arrayLimit: 1000, allowPrototypes: false });
}

/**
 * `before` with each string that the parser streamed (a decoder in `now`, at the same place)
 * replaced by what the route decoded from it, to compare with withDecodedFiles(now).
 */
function decodedWhereStreamed(before: unknown, now: unknown): unknown {
  if (now instanceof Base64Decoder && typeof before === 'string') return { decoded: decodedAsBefore(before, true) };
  if (typeof before !== 'object' || before === null || typeof now !== 'object' || now === null) return before;
  const copy = (Array.isArray(before) ? [] : {}) as Record<string, unknown>;
  for (const key of Object.keys(before)) {
    copy[key] = decodedWhereStreamed((before as Record<string, unknown>)[key], (now as Record<string, unknown>)[key]);
  }
  return copy;
}

const fileBytes = randomBytes(3000, 5);
const base64 = fileBytes.toString('base64');
const form = (fileData: string, extra = '') =>
  `resource[description]=Site+map&resource[file][file_name]=map.png&resource[file][content_type]=image%2Fpng&resource[file][file_data]=${fileData}${extra}`;

const bodies: Array<[string, string]> = [
  ['file_data percent-encoded (curl --data-urlencode)', form(encodeURIComponent(base64))],
  ['file_data with raw + (read back as +)', form(base64)],
  ['file_data with + as %20', form(base64.replace(/\+/g, '%20'))],
  ['file_data with escapes in lower case', form(encodeURIComponent(base64).replace(/%[0-9A-F]{2}/g, (e) => e.toLowerCase()))],
  ['file_data broken into lines (%0D%0A)', form(encodeURIComponent(base64.replace(/.{76}/g, '$&\r\n')))],
  ['file_data with tabs (%09)', form(encodeURIComponent(base64.replace(/.{10}/g, '$&\t')))],
  ['every character of file_data escaped', form([...base64].map((c) => `%${c.charCodeAt(0).toString(16).padStart(2, '0')}`).join(''))],
  ['file_data first', `resource[file][file_data]=${encodeURIComponent(base64)}&resource[description]=x&resource[file][file_name]=a.txt&resource[file][content_type]=text%2Fplain`],
  ['names encoded as Python does (%5B %5D)', `resource%5Bdescription%5D=x&resource%5Bfile%5D%5Bfile_name%5D=a.txt&resource%5Bfile%5D%5Bcontent_type%5D=text%2Fplain&resource%5Bfile%5D%5Bfile_data%5D=${encodeURIComponent(base64)}`],
  ['names in lower-case escapes (%5b %5d)', `resource%5bfile%5d%5bfile_data%5d=QUJD&resource%5bdescription%5d=x`],
  ['names fully percent-encoded', `${encodeURIComponent('resource[file][file_data]').replace(/[a-z]/g, (c) => `%${c.charCodeAt(0).toString(16)}`)}=QUJD`],
  ['an empty file', form('')],
  ['a file_data name without =', 'resource[description]=x&resource[file][file_data]&resource[file][file_name]=a'],
  ['invalid Base64', form('not*base64!')],
  ['a malformed escape in file_data', form('QUJD%ZZ')],
  ['an escape cut by the next parameter', form('QUJD%4', '&resource[x]=1')],
  ['an escape cut by the end of the body', form('QUJDR%4')],
  ['a lone % at the end', form('QUJD%')],
  ['an escaped non-ASCII character in file_data', form('QUJD%C3%A9')],
  ['a raw non-ASCII character in file_data', form('QUJDé')],
  ['an escaped [ in file_data', form('QUJD%5B')],
  ['URL-safe Base64', form('-_-_')],
  ['padding inside file_data', form('QQ%3D%3DQQ%3D%3D')],
  ['= signs in file_data', form('QQ==')],
  ['content_type as a list ([] names)', `resource[description]=x&resource[file][file_name]=a&resource[file][content_type][]=text%2Fplain&resource[file][content_type][]=&resource[file][file_data]=QUJD`],
  ['content_type as an indexed list', `resource[description]=x&resource[file][content_type][0]=text%2Fplain&resource[file][content_type][1]=gzip&resource[file][file_data]=QUJD`],
  ['a description given twice (a list for qs)', `resource[description]=a&resource[description]=b&resource[file][file_data]=QUJD`],
  ['file_data given twice (a list for qs)', `resource[file][file_data]=QUJD&resource[file][file_data]=QUJD`],
  ['file_data given twice, in two spellings', `resource[file][file_data]=QUJD&resource%5Bfile%5D%5Bfile_data%5D=QUJD`],
  ['file_data as a list', `resource[file][file_data][]=QUJD`],
  ['file_data as an object', `resource[file][file_data][x]=QUJD`],
  ['file_data under a list', `resource[file][0][file_data]=QUJD`],
  ['a file that is a string', `resource[description]=x&resource[file]=f.txt`],
  ['a file that is a string, then file_data', `resource[file]=f.txt&resource[file][file_data]=QUJD`],
  ['unknown fields', `utf8=%E2%9C%93&authenticity_token=abc%2Bdef&${form('QUJD')}&commit=Upload&resource[extra][deep][]=1`],
  ['empty parameters and names', `&&=x&${form('QUJD')}&&=&resource=&`],
  ['a field without the resource', 'description=x'],
  ['a resource that is a string', 'resource=x'],
  ['__proto__ names', `__proto__[x]=1&resource[__proto__][y]=2&resource[file][__proto__]=3&${form('QUJD')}`],
  ['constructor and toString names', `constructor=1&resource[toString]=2&${form('QUJD')}`],
  ['unicode text, raw and escaped', `resource[description]=${encodeURIComponent('é ü 日本 😀')}+and+é+😀&resource[file][file_name]=%F0%9F%98%80.txt&resource[file][file_data]=QUJD`],
  ['a malformed escape in a small field', `resource[description]=100%&resource[file][file_name]=%ZZ&resource[file][file_data]=QUJD`],
  ['names nested deeper than qs reads', `resource[file][a][b][c][d][e][f][g][h]=1&resource[file][file_data]=QUJD`],
  ['a name with text after its brackets', `resource[file][file_data]x=QUJD`],
  ['file_data past the 1000th parameter (dropped, as qs does)', `${'a=1&'.repeat(1000)}resource[file][file_data]=QUJD`],
  ['file_data as the 1000th parameter', `${'a=1&'.repeat(999)}resource[file][file_data]=QUJD&resource[description]=dropped`],
  ['a + in a name and a value', `resource[descri+ption]=a+b&resource[description]=c+d`],
];

describe('formUploadParser', () => {
  it.each(bodies)('reads %s as qs did, however the body is cut', (_name, body) => {
    const before = parsedAsBefore(body);
    for (const [, pieces] of splittings(body)) {
      const now = parse(pieces);
      expect(withDecodedFiles(now)).toEqual(decodedWhereStreamed(before, now));
    }
  });

  it('streams the parameter qs puts at resource.file.file_data into a decoder', () => {
    const value = parse([form(encodeURIComponent(base64))]);
    expect(fileDataOf(value)).toBeInstanceOf(Base64Decoder);
    expect((fileDataOf(value) as Base64Decoder).bytes().equals(fileBytes)).toBe(true);
    // Two of them are a list for qs, and the route refuses it: no decoder stands for it.
    expect(fileDataOf(parse(['resource[file][file_data]=QUJD&resource[file][file_data]=QUJD']))).not.toBeInstanceOf(Base64Decoder);
  });

  it('gives each streamed parameter its own decoder, wherever qs puts it', () => {
    const value = parse(['resource[file][file_data]=QUJD&resource[file][file_data]=QUJDRA']);
    const list = fileDataOf(value) as Base64Decoder[];
    expect(list.map((decoder) => decoder.bytes().toString())).toEqual(['ABC', 'ABCD']);
  });

  it('holds the other parameters within their budget: a larger value or name is a 413', () => {
    const large = 'x'.repeat(otherFieldsLimit);
    for (const body of [form('QUJD', `&resource[description]=${large}`), `unknown=${large}&${form('QUJD')}`, `${large}=1`, `resource[file][${large}]=1`]) {
      const error = refusal(() => parse([body]));
      expect(error.code).toBe('too_large');
      expect(error.message).toMatch(/the fields besides file\.file_data may take at most 65536 characters/);
    }
    expect(() => parse([form('QUJD', `&resource[description]=${'x'.repeat(otherFieldsLimit - 300)}`)])).not.toThrow();
  });

  it('does not count the file against that budget', () => {
    const big = encodeURIComponent(Buffer.alloc(500_000, 7).toString('base64'));
    expect((fileDataOf(parse([form(big)])) as Base64Decoder).size).toBe(500_000);
  });

  it('refuses a file far over the limit while it is read, before the body ends', () => {
    const max = 1000;
    const parser = formUploadParser({ maxBytes: max });
    parser.write('resource[file][file_data]=');
    const block = 'QUJD'.repeat(1024);
    const error = refusal(() => {
      for (let written = 0; written < 2 * (max + exactSizeGraceBytes); written += 3072) parser.write(block);
    });
    expect(error.code).toBe('too_large');
    expect(error.message).toBe(`file.file_data: the file is over ${max} bytes; the largest accepted is ${max} bytes`);
  });
});
