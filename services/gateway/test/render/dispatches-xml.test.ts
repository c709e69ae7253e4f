import { XMLParser } from 'fast-xml-parser';
import type { DispatchView } from '@formcast/contracts';
import { renderDispatchesXml, renderDispatchXml } from '../../src/render/dispatches-xml';

const declaration = '<?xml version="1.0" encoding="UTF-8"?>\n';

const scheduled: DispatchView = {
  id: 296,
  name: 'Inspection for Acme',
  namespace: 'http://formcast.local/xforms/abc?0b6c5bd6-8c36-4d0e-9d4b-0a5b1e8f6f11',
  version: '1.01',
  organization_id: 7,
  device_id: 4,
  description: 'Call ahead',
  parent_form_id: 270,
  parent_form_version: '1.02',
  created_at: '2024-05-04T11:25:49.000Z',
  updated_at: '2024-05-04T11:26:00.000Z',
  scheduled_at: '2024-05-05T08:00:00.000Z',
  location: 'lat=35.77, long=-78.63',
  address: 'Raleigh & Durham',
  geofence_radius: 150.5,
  author_identifier: 'Android_1234',
  author_type: 'Device',
};

const atOnce: DispatchView = { ...scheduled, id: 297, description: '', scheduled_at: null, location: null, address: null, geofence_radius: null };

describe('renderDispatchesXml', () => {
  it('writes the documented list: <dispatches type="array">, dashed names, typed integers and times, in the documented order', () => {
    expect(renderDispatchesXml([scheduled])).toBe(
      declaration +
        [
          '<dispatches type="array">',
          '  <dispatch>',
          '    <id type="integer">296</id>',
          '    <name>Inspection for Acme</name>',
          `    <namespace>${scheduled.namespace}</namespace>`,
          '    <version>1.01</version>',
          '    <organization-id type="integer">7</organization-id>',
          '    <device-id type="integer">4</device-id>',
          '    <description>Call ahead</description>',
          '    <parent-form-id type="integer">270</parent-form-id>',
          '    <parent-form-version>1.02</parent-form-version>',
          '    <created-at type="dateTime">2024-05-04T11:25:49.000Z</created-at>',
          '    <updated-at type="dateTime">2024-05-04T11:26:00.000Z</updated-at>',
          '    <scheduled-at type="dateTime">2024-05-05T08:00:00.000Z</scheduled-at>',
          '    <location>lat=35.77, long=-78.63</location>',
          '    <address>Raleigh &amp; Durham</address>',
          '    <geofence-radius type="float">150.5</geofence-radius>',
          '    <author-identifier>Android_1234</author-identifier>',
          '    <author-type>Device</author-type>',
          '  </dispatch>',
          '</dispatches>',
          '',
        ].join('\n'),
    );
  });

  it('marks what a dispatch sent at once does not have nil, keeping the type', () => {
    const xml = renderDispatchesXml([atOnce]);
    expect(xml).toContain('<scheduled-at type="dateTime" nil="true"/>');
    expect(xml).toContain('<location nil="true"/>');
    expect(xml).toContain('<address nil="true"/>');
    expect(xml).toContain('<geofence-radius type="float" nil="true"/>');
    expect(xml).toContain('<description/>');
  });

  it('writes an empty list as an empty typed container', () => {
    expect(renderDispatchesXml([])).toBe(`${declaration}<dispatches type="array"/>\n`);
  });

  it('repeats <dispatch> once per dispatch, in order', () => {
    const parsed = new XMLParser({ ignoreAttributes: false, parseTagValue: false }).parse(renderDispatchesXml([scheduled, atOnce]));
    expect(parsed.dispatches.dispatch.map((d: { id: { '#text': string } }) => d.id['#text'])).toEqual(['296', '297']);
  });
});

describe('renderDispatchXml', () => {
  it('writes one <dispatch> root with the same elements', () => {
    const xml = renderDispatchXml(atOnce);
    expect(xml.startsWith(`${declaration}<dispatch>\n  <id type="integer">297</id>\n`)).toBe(true);
    expect(xml.endsWith('  <geofence-radius type="float" nil="true"/>\n  <author-identifier>Android_1234</author-identifier>\n  <author-type>Device</author-type>\n</dispatch>\n')).toBe(true);
    expect(xml).not.toContain('<inputs');
  });

  it('adds <inputs> when asked: text answers, subforms as children, group repetitions as repeated elements', () => {
    const xml = renderDispatchXml({
      ...atOnce,
      inputs: { customer_name: 'Acme <& Sons>', contact: { phone: '555', floor: '4' }, parts: [{ part_no: 'A-1' }, { part_no: 'B-7', qty: '2' }], comments: '' },
    });
    const parsed = new XMLParser({ parseTagValue: false, isArray: (name) => name === 'parts' }).parse(xml);
    expect(parsed.dispatch.inputs).toEqual({
      customer_name: 'Acme <& Sons>',
      contact: { phone: '555', floor: '4' },
      parts: [{ part_no: 'A-1' }, { part_no: 'B-7', qty: '2' }],
      comments: '',
    });
    expect(xml).toContain('<customer_name>Acme &lt;&amp; Sons&gt;</customer_name>');
  });

  it('writes empty inputs as an empty element', () => {
    expect(renderDispatchXml({ ...atOnce, inputs: {} })).toContain('  <inputs/>\n');
  });

  it('refuses an input name that is not an XML name rather than write a broken document', () => {
    expect(() => renderDispatchXml({ ...atOnce, inputs: { 'a b': 'x' } })).toThrow(/not an XML name/);
  });
});
