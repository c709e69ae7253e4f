import { AppError } from '@formcast/platform';
import { refuseUnwritableText } from '../../src/xml/unwritable-text';

function refusal(value: unknown, source: 'json' | 'xml' = 'json', path?: string): string {
  try {
    refuseUnwritableText(value, source, path);
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe('invalid');
    return (error as AppError).message;
  }
  throw new Error(`accepted ${JSON.stringify(value)}`);
}

describe('refuseUnwritableText', () => {
  it('names the field of a JSON value by its keys and indexes', () => {
    expect(refusal({ name: 'a\u0007' })).toBe('name: contains a character XML cannot carry (U+0007)');
    expect(refusal({ payload: { customer_name: '\u0000' } })).toBe('payload.customer_name: contains a character XML cannot carry (U+0000)');
    expect(refusal({ answers: { parts: [{ part_no: 'ok' }, { part_no: 'x\uFFFF' }] } })).toBe(
      'answers.parts[1].part_no: contains a character XML cannot carry (U+FFFF)',
    );
    expect(refusal(['ok', '\u001f'])).toBe('[1]: contains a character XML cannot carry (U+001F)');
    expect(refusal('\ud800')).toBe('body: contains a character XML cannot carry (U+D800, a lone surrogate)');
  });

  it('checks keys too', () => {
    expect(refusal({ payload: { 'bad\u0001key': 'x' } })).toBe('payload: a name contains a character XML cannot carry (U+0001)');
    expect(refusal({ '\udc00': 1 })).toBe('body: a name contains a character XML cannot carry (U+DC00, a lone surrogate)');
  });

  it('names parsed XML by element and attribute', () => {
    expect(refusal({ oneshot: { form_name: { '#text': '\u0008', '@_type': 'string' } } }, 'xml')).toBe(
      'oneshot.form_name: contains a character XML cannot carry (U+0008)',
    );
    expect(refusal({ instance: { '@_submissionIdentifier': '\u000b' } }, 'xml')).toBe('instance@submissionIdentifier: contains a character XML cannot carry (U+000B)');
  });

  it('starts from the path it is given', () => {
    expect(refusal('a\u0000', 'json', 'path')).toBe('path: contains a character XML cannot carry (U+0000)');
  });

  it('accepts every other value: text with TAB, LF, CR and any Unicode, numbers, booleans, null, objects of no plain kind', () => {
    class Decoder {
      text = '\u0000 is held by something that is not a parsed value';
    }
    const value = { a: 'x\ty\nz\r😊\uFFFD', b: [1, true, null, { c: 'é' }], d: new Decoder(), e: Object.assign(Object.create(null), { f: 'ok' }) };
    expect(() => refuseUnwritableText(value, 'json')).not.toThrow();
  });

  it('walks objects without a prototype (querystring, qs)', () => {
    expect(refusal(Object.assign(Object.create(null), { device_id: '\u0000' }))).toBe('device_id: contains a character XML cannot carry (U+0000)');
  });
});
