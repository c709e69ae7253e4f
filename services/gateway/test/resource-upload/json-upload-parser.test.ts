import { Base64Decoder, exactSizeGraceBytes } from '../../src/http/resource-upload/base64-decoder';
import { otherFieldsLimit } from '../../src/http/resource-upload/field-budget';
import { jsonUploadParser } from '../../src/http/resource-upload/json-upload-parser';
import { decodedAsBefore, fileDataOf, refusal, setFileData, withDecodedFiles } from './decoded';
import { randomBytes, splittings } from './pieces';

function parse(pieces: string[], maxBytes = 1 << 20): unknown {
  const parser = jsonUploadParser({ maxBytes });
  for (const piece of pieces) parser.write(piece);
  return parser.end();
}

/** What JSON.parse and the route made of the body before, file_data decoded the same way. */
function parsedAsBefore(body: string): unknown {
  const value = JSON.parse(body) as unknown;
  const fileData = fileDataOf(value);
  if (typeof fileData === 'string') setFileData(value, { decoded: decodedAsBefore(fileData, false) });
  return value;
}

const fileBytes = randomBytes(3000, 3);
const base64 = fileBytes.toString('base64');
const resource = (file: unknown, extra: Record<string, unknown> = {}) => JSON.stringify({ resource: { description: 'Options', file, ...extra } });
const file = (fileData: unknown = base64) => ({ file_name: 'options.xlsx', file_data: fileData, content_type: 'text/plain' });

const bodies: Array<[string, string]> = [
  ['a typical body', resource(file())],
  ['file_data first', `{"resource":{"file":{"file_data":"${base64}","file_name":"a.txt","content_type":"text/plain"},"description":"x"}}`],
  ['Base64 broken into lines with \\n escapes', resource(file(base64.replace(/.{76}/g, '$&\r\n')))],
  ['Base64 with escaped slashes', `{"resource":{"description":"x","file":{"file_name":"a","content_type":"t","file_data":"${base64.replace(/\//g, '\\/')}"}}}`],
  ['Base64 with \\u escapes', `{"resource":{"description":"x","file":{"file_name":"a","content_type":"t","file_data":"\\u0051\\u0051=="}}}`],
  ['spaces in the Base64', resource(file('QU JD RA = ='))],
  ['an empty file', resource(file(''))],
  ['unpadded Base64', resource(file(base64.replace(/=+$/, '')))],
  ['invalid Base64', resource(file('not*base64!'))],
  ['Base64 of impossible length', resource(file('QUJDR'))],
  ['URL-safe Base64', resource(file('-_-_'))],
  ['file_data that is a number', resource(file(12))],
  ['file_data that is null', resource(file(null))],
  ['file_data that is an object', resource(file({ a: base64 }))],
  ['file_data that is an array', resource(file([base64]))],
  ['content_type as [mime, null]', resource({ ...file(), content_type: ['text/plain', null] })],
  ['unknown fields everywhere', JSON.stringify({ before: [1, -2.5e3, true, false, null, { a: 'b' }], resource: { description: 'x', extra: { deep: [[['z']]] }, file: { ...file(), other: 0 } }, after: 'y' })],
  ['unicode around the file', resource(file(), { description: 'é ü 日本 😀 "quoted" \\ back\tslash', note: '\u2028' })],
  ['whitespace everywhere', ` \n\t{ "resource" :\r\n { "description" : "x" , "file" : { "file_name" : "a" , "file_data" : "${base64}" , "content_type" : "t" } } }\n `],
  ['a duplicate file_data: the last wins', `{"resource":{"description":"x","file":{"file_name":"a","content_type":"t","file_data":"${base64}","file_data":"QUJD"}}}`],
  ['a duplicate file: the last wins', `{"resource":{"description":"x","file":{"file_name":"a","content_type":"t","file_data":"QUJD"},"file":{"file_name":"b","content_type":"t"}}}`],
  ['a duplicate resource: the last wins', `{"resource":{"description":"x","file":{"file_data":"QUJD"}},"resource":{"description":"y"}}`],
  ['file_data elsewhere: a plain string', JSON.stringify({ file_data: 'QUJD', resource: { file_data: 'QUJD', file: [{ file_data: 'QUJD' }], other: { file: { file_data: '*' } } } })],
  ['a resource that is an array', JSON.stringify({ resource: [{ file: file() }] })],
  ['a file that is an array', JSON.stringify({ resource: { description: 'x', file: [file()] } })],
  ['a root that is an array', JSON.stringify([{ resource: { file: file() } }])],
  ['a root that is a string', '"resource"'],
  ['a root that is a number', '-0.5e-3'],
  ['a root that is null', 'null'],
  ['numbers of every shape', '[0, -0, 1, 10, 1.5, 1e3, 1E+3, 1e-3, -12.25e10, 123456789012345678901234567890]'],
  ['empty containers and strings', '{"a":{},"b":[],"c":"","d":[{}],"":""}'],
];

describe('jsonUploadParser', () => {
  it.each(bodies)('reads %s as JSON.parse did, however the body is cut', (_name, body) => {
    const expected = parsedAsBefore(body);
    for (const [, pieces] of splittings(body)) expect(withDecodedFiles(parse(pieces))).toEqual(expected);
  });

  it('streams resource.file.file_data into a decoder, and only that string', () => {
    const value = parse([resource(file())]) as { resource: { file: { file_data: unknown } } };
    expect(value.resource.file.file_data).toBeInstanceOf(Base64Decoder);
    expect((value.resource.file.file_data as Base64Decoder).bytes().equals(fileBytes)).toBe(true);

    const elsewhere = parse([JSON.stringify({ resource: { file: [{ file_data: 'QUJD' }] }, file_data: 'QUJD' })]) as Record<string, unknown>;
    expect(withDecodedFiles(elsewhere)).toEqual({ resource: { file: [{ file_data: 'QUJD' }] }, file_data: 'QUJD' });
  });

  it('keeps a __proto__ key as an own property, as JSON.parse does', () => {
    const value = parse(['{"__proto__":{"polluted":true},"resource":{"__proto__":"x","description":"d"}}']) as Record<string, unknown>;
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(Object.prototype.hasOwnProperty.call(value, '__proto__')).toBe(true);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
    expect(withDecodedFiles(value)).toEqual(withDecodedFiles(JSON.parse('{"__proto__":{"polluted":true},"resource":{"__proto__":"x","description":"d"}}')));
  });

  it.each([
    ['{"resource": '],
    ['{'],
    ['}'],
    [''],
    ['  '],
    ['{"a":1,}'],
    ['[1,]'],
    ['{"a" 1}'],
    ['{"a":01}'],
    ['{"a":tru}'],
    ['{"a":"abc'],
    ['{"a":"\u0001"}'],
    ['{"a":"\\x"}'],
    ['{"a":1}x'],
    ['{"a":1}{}'],
    ['{a:1}'],
    ["{'a':1}"],
    ['{"a":NaN}'],
    ['{"a":1.}'],
    ['{"a":-}'],
    ['{"resource":{"file":{"file_data":"QUJDRA'],
  ])('refuses %j as Malformed JSON, as JSON.parse does, however it is cut', (body) => {
    expect(() => JSON.parse(body)).toThrow();
    for (const [, pieces] of splittings(body)) {
      const error = refusal(() => parse(pieces));
      expect(error.code).toBe('invalid');
      expect(error.message).toMatch(/^Malformed JSON: /);
    }
  });

  it('holds the other fields within their budget: a larger field, key, or structure is a 413', () => {
    const large = 'x'.repeat(otherFieldsLimit);
    for (const body of [
      resource(file(), { description: large }),
      JSON.stringify({ [large]: 1, resource: {} }),
      JSON.stringify({ unknown: large }),
      `[${'[],'.repeat(otherFieldsLimit)}[]]`,
      `[${'0,'.repeat(otherFieldsLimit / 2)}0]`,
    ]) {
      const error = refusal(() => parse([body]));
      expect(error.code).toBe('too_large');
      expect(error.message).toMatch(/the fields besides file\.file_data may take at most 65536 characters/);
    }
    // Just within it: read.
    expect(() => parse([resource(file(), { description: 'x'.repeat(otherFieldsLimit - 200) })])).not.toThrow();
  });

  it('does not count the file against that budget', () => {
    const big = Buffer.alloc(500_000, 7).toString('base64');
    const value = parse([resource(file(big))]) as unknown;
    expect((fileDataOf(value) as Base64Decoder).size).toBe(500_000);
  });

  it('refuses a file far over the limit while it is read, before the body ends', () => {
    const max = 1000;
    const parser = jsonUploadParser({ maxBytes: max });
    parser.write('{"resource":{"file":{"file_data":"');
    const block = 'QUJD'.repeat(1024);
    const error = refusal(() => {
      for (let written = 0; written < 2 * (max + exactSizeGraceBytes); written += 3072) parser.write(block);
    });
    expect(error.code).toBe('too_large');
    expect(error.message).toBe(`file.file_data: the file is over ${max} bytes; the largest accepted is ${max} bytes`);
  });

  it('counts a file just over the limit to its end, for its exact size', () => {
    const value = parse([resource(file(Buffer.alloc(1001, 1).toString('base64')))], 1000);
    const decoder = fileDataOf(value) as Base64Decoder;
    expect(decoder.valid).toBe(true);
    expect(decoder.size).toBe(1001);
  });
});
