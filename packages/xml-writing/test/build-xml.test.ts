import { XMLParser } from 'fast-xml-parser';
import { buildCompactXml, buildXml, xmlArray, xmlBoolean, xmlInteger, xmlNullableText } from '../src/build-xml';

const declaration = '<?xml version="1.0" encoding="UTF-8"?>\n';

describe('buildXml: Rails to_xml shapes', () => {
  it('writes the declaration, then the root indented by two spaces, one element a line', () => {
    expect(buildXml('device', { id: xmlInteger(5), owner: 'Ada', approved: xmlBoolean(true) })).toBe(
      declaration +
        ['<device>', '  <id type="integer">5</id>', '  <owner>Ada</owner>', '  <approved type="boolean">true</approved>', '</device>', ''].join('\n'),
    );
  });

  it('types integers and booleans, zero and false included', () => {
    expect(buildXml('badge', xmlInteger(0))).toBe(`${declaration}<badge type="integer">0</badge>\n`);
    expect(buildXml('pending', xmlBoolean(false))).toBe(`${declaration}<pending type="boolean">false</pending>\n`);
  });

  it('marks empty, null and missing text nil', () => {
    expect(buildXml('device', { a: xmlNullableText(''), b: xmlNullableText(null), c: xmlNullableText(undefined), d: xmlNullableText('x') })).toBe(
      declaration + ['<device>', '  <a nil="true"/>', '  <b nil="true"/>', '  <c nil="true"/>', '  <d>x</d>', '</device>', ''].join('\n'),
    );
  });

  it('writes arrays as typed containers of repeated items; an empty one is an empty container', () => {
    expect(
      buildXml('groups', {
        '@_type': 'array',
        group: [
          { id: xmlInteger(1), name: 'Default', form_ids: xmlArray('form_id', [xmlInteger(3), xmlInteger(4)]), device_ids: xmlArray('device_id', []) },
        ],
      }),
    ).toBe(
      declaration +
        [
          '<groups type="array">',
          '  <group>',
          '    <id type="integer">1</id>',
          '    <name>Default</name>',
          '    <form_ids type="array">',
          '      <form_id type="integer">3</form_id>',
          '      <form_id type="integer">4</form_id>',
          '    </form_ids>',
          '    <device_ids type="array"/>',
          '  </group>',
          '</groups>',
          '',
        ].join('\n'),
    );
  });

  it('escapes markup in text and attributes', () => {
    expect(buildXml('errors', { error: { '#text': `a<b>&"c'`, '@_field': `x"&<'` } })).toBe(
      `${declaration}<errors>\n  <error field="x&quot;&amp;&lt;&apos;">a&lt;b&gt;&amp;&quot;c&apos;</error>\n</errors>\n`,
    );
  });

  it('round-trips: text comes back as it went in', () => {
    const tricky = ['plain', `a&b<c>d"e'f`, '&amp;', '&#65;', 'é ü 日本 😊', ']]>', '007', 'true'];
    const parser = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '@_', parseTagValue: false, ignoreDeclaration: true });
    const xml = buildXml('values', { value: tricky, count: xmlInteger(tricky.length) });
    expect(parser.parse(xml)).toEqual({ values: { value: tricky, count: { '#text': String(tricky.length), '@_type': 'integer' } } });
  });
});

describe('buildCompactXml', () => {
  it('writes the declaration, then the root on one line: no whitespace between elements', () => {
    expect(buildCompactXml('device', { id: xmlInteger(5), owner: 'Ada', notes: '', sub: { a: 'x' } })).toBe(
      `${declaration}<device><id type="integer">5</id><owner>Ada</owner><notes/><sub><a>x</a></sub></device>`,
    );
  });

  it('escapes markup and replaces characters XML cannot carry as buildXml does', () => {
    expect(buildCompactXml('e', { '#text': `a<b>&"c'\u0007`, '@_f': `x"\ud800` })).toBe(`${declaration}<e f="x&quot;\uFFFD">a&lt;b&gt;&amp;&quot;c&apos;\uFFFD</e>`);
  });
});
