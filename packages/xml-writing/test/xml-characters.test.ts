import fc from 'fast-check';
import { XMLValidator } from 'fast-xml-parser';
import { buildXml } from '../src/build-xml';
import { codePointLabel, escapeXmlText, firstNonXmlCharacter, xmlSafeText } from '../src/xml-characters';

/** Every UTF-16 code unit XML 1.0 cannot carry on its own. */
const forbiddenUnits = [
  ...Array.from({ length: 0x20 }, (_, code) => code).filter((code) => code !== 0x9 && code !== 0xa && code !== 0xd),
  0xfffe,
  0xffff,
];

describe('firstNonXmlCharacter', () => {
  it.each(forbiddenUnits.map((code) => [codePointLabel(code), code]))('finds %s', (_label, code) => {
    expect(firstNonXmlCharacter(`ok ${String.fromCharCode(code)} ok`)).toBe(code);
  });

  it('finds lone surrogates, high or low, at either end or inside', () => {
    expect(firstNonXmlCharacter('\ud800')).toBe(0xd800);
    expect(firstNonXmlCharacter('a\udbffb')).toBe(0xdbff);
    expect(firstNonXmlCharacter('\udc00a')).toBe(0xdc00);
    expect(firstNonXmlCharacter('a\udfff')).toBe(0xdfff);
    expect(firstNonXmlCharacter('\ude0a\ud83d')).toBe(0xde0a); // a pair the wrong way round is two lone halves
  });

  it('passes TAB, LF, CR, surrogate pairs, U+FFFD and every other character', () => {
    expect(firstNonXmlCharacter('\t\n\r x é 日本 \ud83d\ude0a \uFFFD \uE000 \u0085 \u2028 \u{10FFFF}')).toBeUndefined();
    for (let code = 0x20; code < 0xd800; code += 97) expect(firstNonXmlCharacter(String.fromCharCode(code))).toBeUndefined();
    for (let code = 0xe000; code <= 0xfffd; code += 13) expect(firstNonXmlCharacter(String.fromCharCode(code))).toBeUndefined();
  });

  it('agrees, on any string of UTF-16 units, with a scan of each character against XML 1.0 Char', () => {
    const isXmlChar = (code: number) =>
      code === 0x9 || code === 0xa || code === 0xd || (code >= 0x20 && code <= 0xd7ff) || (code >= 0xe000 && code <= 0xfffd) || code >= 0x10000;
    const firstByScan = (text: string) => {
      for (const char of text) {
        const code = char.codePointAt(0)!;
        if (!isXmlChar(code)) return code; // a lone surrogate is iterated alone, as its own code
      }
      return undefined;
    };
    const unit = fc.oneof(fc.integer({ min: 0, max: 0xffff }).map((code) => String.fromCharCode(code)), fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }));
    fc.assert(
      fc.property(fc.string({ unit, maxLength: 40 }), (text) => {
        expect(firstNonXmlCharacter(text)).toBe(firstByScan(text));
        expect(firstNonXmlCharacter(xmlSafeText(text))).toBeUndefined();
      }),
      { numRuns: 2000 },
    );
  });

  it('labels a code as U+ and four or more hexadecimal digits', () => {
    expect(codePointLabel(7)).toBe('U+0007');
    expect(codePointLabel(0xfffe)).toBe('U+FFFE');
    expect(codePointLabel(0x1f60a)).toBe('U+1F60A');
  });
});

describe('xmlSafeText and escapeXmlText', () => {
  it('replaces each character XML cannot carry with U+FFFD, and nothing else', () => {
    expect(xmlSafeText('a\u0000b\u0007c\u001f\uFFFE\uFFFF\ud800\udc00\ude0a\ud83d\t\n\r😊')).toBe('a\uFFFDb\uFFFDc\uFFFD\uFFFD\uFFFD\ud800\udc00\uFFFD\uFFFD\t\n\r😊');
    const clean = 'nothing to replace: é 日本 😊';
    expect(xmlSafeText(clean)).toBe(clean);
  });

  it('escapes markup as the builder does', () => {
    expect(escapeXmlText(`a&b<c>d"e'f\u0007`)).toBe('a&amp;b&lt;c&gt;d&quot;e&apos;f\uFFFD');
  });
});

describe('XML written with text stored before it was refused', () => {
  const stored = `bell\u0007 nul\u0000 ${String.fromCharCode(0xfffe)} lone\ud800 <&> ok😊`;

  it('buildXml writes them as U+FFFD: the document parses', () => {
    const xml = buildXml('groups', { '@_type': 'array', group: [{ name: stored }] });
    expect(XMLValidator.validate(xml)).toBe(true);
    expect(xml).toContain('<name>bell\uFFFD nul\uFFFD \uFFFD lone\uFFFD &lt;&amp;&gt; ok😊</name>');
  });
});
