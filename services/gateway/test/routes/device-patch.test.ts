import type { Request } from 'express';
import { isAppError } from '@formcast/platform';
import { devicePatchFromBody } from '../../src/routes/device-patch';

/** What devicePatchFromBody reads of a request: its raw body (as express.raw leaves it) and Content-Type. */
function request(contentType: string, body: string): Request {
  return { body: Buffer.from(body), get: (name: string) => (name.toLowerCase() === 'content-type' ? contentType : undefined) } as unknown as Request;
}
const json = (value: unknown) => devicePatchFromBody(request('application/json', JSON.stringify(value)));
const xml = (text: string) => devicePatchFromBody(request('application/xml', text));

function refusal(read: () => unknown): string {
  try {
    read();
  } catch (error) {
    if (isAppError(error) && error.code === 'invalid') return error.message;
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('devicePatchFromBody', () => {
  it('reads JSON groups in either generation, and passes custom attributes on for the directory to check', () => {
    expect(json({ device: { groups: 'Default, North' } })).toEqual({ groups: ['Default', 'North'] });
    expect(json({ device: { groups: [{ name: 'Default' }, { name: 'North' }] } })).toEqual({ groups: ['Default', 'North'] });
    expect(json({ device: { groups: ['Default'] } })).toEqual({ groups: ['Default'] });
    expect(json({ device: { owner: 'Sam', custom_attributes: { region: 'North' } } })).toEqual({ owner: 'Sam', custom_attributes: { region: 'North' } });
    expect(json({ device: { custom_attributes: 'bad' } })).toEqual({ custom_attributes: 'bad' });
    expect(json({ device: {} })).toEqual({});
  });

  it('refuses JSON of another shape, naming the field', () => {
    expect(refusal(() => json({ owner: 'Sam' }))).toMatch(/^Expected a JSON object \{"device"/);
    expect(refusal(() => json({ device: { owner: 3 } }))).toBe('owner: must be a string');
    expect(refusal(() => json({ device: { groups: [{ title: 'North' }] } }))).toMatch(/^groups: /);
    expect(refusal(() => json({ device: { groups: 3 } }))).toMatch(/^groups: /);
  });

  it('reads XML groups as a comma list or <name> elements, and custom attributes as key/value pairs in either spelling', () => {
    expect(xml('<device><groups>Default,North</groups></device>')).toMatchObject({ groups: ['Default', 'North'] });
    expect(xml('<device><groups type="array"><name>North</name></groups></device>')).toMatchObject({ groups: ['North'] });
    expect(xml('<device><groups type="array"><name>A</name><name>B</name></groups></device>')).toMatchObject({ groups: ['A', 'B'] });
    expect(xml('<device><groups type="array"/></device>')).toMatchObject({ groups: [] });
    expect(
      xml(
        '<device><custom_attributes type="array"><custom_attribute><key>region</key><value>North</value></custom_attribute>' +
          '<custom_attribute><key>note</key><value/></custom_attribute><custom_attribute><key>__proto__</key></custom_attribute></custom_attributes></device>',
      ).custom_attributes,
    ).toEqual(JSON.parse('{"region":"North","note":"","__proto__":""}'));
    expect(
      xml('<device><custom-attributes><custom-attribute><key>region</key><value>South</value></custom-attribute></custom-attributes></device>')
        .custom_attributes,
    ).toEqual({ region: 'South' });
    expect(xml('<device><custom_attributes/></device>').custom_attributes).toEqual({});
    expect(xml('<device><owner>Sam</owner></device>')).toEqual({ owner: 'Sam', description: undefined, groups: undefined, custom_attributes: undefined });
  });

  it('refuses XML custom attributes without a key, with a name twice, or as text', () => {
    expect(refusal(() => xml('<device><custom_attributes><custom_attribute><value>1</value></custom_attribute></custom_attributes></device>'))).toBe(
      'custom_attributes: each <custom_attribute> needs a <key>',
    );
    const twice = '<custom_attribute><key>a</key><value>1</value></custom_attribute>';
    expect(refusal(() => xml(`<device><custom_attributes>${twice}${twice}</custom_attributes></device>`))).toBe('custom_attributes: the name "a" is given twice');
    expect(refusal(() => xml('<device><custom_attributes>region=North</custom_attributes></device>'))).toMatch(/^custom_attributes: must hold <custom_attribute>/);
    expect(refusal(() => xml('<group><owner>Sam</owner></group>'))).toBe('XML root element must be <device>');
  });
});
