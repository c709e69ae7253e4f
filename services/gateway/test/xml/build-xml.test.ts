import { buildXml, xmlInteger } from '@formcast/xml-writing';
import { parseXml } from '../../src/xml/parse-xml';

describe('buildXml answers read by the gateway\'s own parser', () => {
  it('round-trips through parseXml: text comes back as it went in', () => {
    const tricky = ['plain', `a&b<c>d"e'f`, '&amp;', '&#65;', 'é ü 日本 😊', ']]>', '007', 'true'];
    const xml = buildXml('values', { value: tricky, count: xmlInteger(tricky.length) });
    expect(parseXml(xml)).toEqual({ values: { value: tricky, count: { '#text': String(tricky.length), '@_type': 'integer' } } });
  });
});
