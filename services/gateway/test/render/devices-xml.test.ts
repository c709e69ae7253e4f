import { XMLParser } from 'fast-xml-parser';
import type { DeviceV2View, DeviceView } from '@formcast/contracts';
import { renderDevicesV2Xml, renderDeviceV2Xml } from '../../src/render/devices-v2-xml';
import { renderDevicesXml, renderDeviceXml } from '../../src/render/devices-xml';

const declaration = '<?xml version="1.0" encoding="UTF-8"?>\n';
const parser = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '@_', parseTagValue: false, ignoreDeclaration: true });

const v1: DeviceView = {
  id: 5,
  identifier: 'Android_5',
  organization_id: 7,
  owner: 'Sam',
  description: '',
  pending_approval: false,
  groups: 'Default,North',
  custom_attributes: {},
};

const v2: DeviceV2View = {
  id: 5,
  identifier: 'Android_5',
  os_version: 'Android 14',
  app_identifier: null,
  app_version: '7.2.1',
  organization_id: 7,
  owner: 'Sam',
  description: 'Van <3>',
  pending_approval: true,
  groups: [{ name: 'Default' }, { name: 'North' }],
  custom_attributes: { region: 'North', '@_type': 'not an attribute', '#text': 'nor text', note: '' },
};

describe('first generation devices XML', () => {
  it('keeps <custom-attributes/> empty as the 2018 client saw it', () => {
    expect(renderDeviceXml(v1)).toBe(
      declaration +
        [
          '<device>',
          '  <id type="integer">5</id>',
          '  <identifier>Android_5</identifier>',
          '  <organization-id type="integer">7</organization-id>',
          '  <owner>Sam</owner>',
          '  <description nil="true"/>',
          '  <pending-approval type="boolean">false</pending-approval>',
          '  <groups>Default,North</groups>',
          '  <custom-attributes/>',
          '</device>',
          '',
        ].join('\n'),
    );
  });

  it('shows custom attributes set since as dashed key/value pairs', () => {
    const xml = renderDevicesXml([{ ...v1, custom_attributes: { region: 'North', 'a b': 'x & y' } }]);
    expect(xml).toContain(
      [
        '    <custom-attributes>',
        '      <custom-attribute>',
        '        <key>region</key>',
        '        <value>North</value>',
        '      </custom-attribute>',
        '      <custom-attribute>',
        '        <key>a b</key>',
        '        <value>x &amp; y</value>',
        '      </custom-attribute>',
        '    </custom-attributes>',
      ].join('\n'),
    );
  });
});

describe('second generation devices XML', () => {
  it('renders one device with underscored names, nil versions, groups and attributes as arrays', () => {
    expect(renderDeviceV2Xml(v2)).toBe(
      declaration +
        [
          '<device>',
          '  <id type="integer">5</id>',
          '  <identifier>Android_5</identifier>',
          '  <os_version>Android 14</os_version>',
          '  <app_identifier nil="true"/>',
          '  <app_version>7.2.1</app_version>',
          '  <organization_id type="integer">7</organization_id>',
          '  <owner>Sam</owner>',
          '  <description>Van &lt;3&gt;</description>',
          '  <pending_approval type="boolean">true</pending_approval>',
          '  <groups type="array">',
          '    <name>Default</name>',
          '    <name>North</name>',
          '  </groups>',
          '  <custom_attributes type="array">',
          '    <custom_attribute>',
          '      <key>region</key>',
          '      <value>North</value>',
          '    </custom_attribute>',
          '    <custom_attribute>',
          '      <key>@_type</key>',
          '      <value>not an attribute</value>',
          '    </custom_attribute>',
          '    <custom_attribute>',
          '      <key>#text</key>',
          '      <value>nor text</value>',
          '    </custom_attribute>',
          '    <custom_attribute>',
          '      <key>note</key>',
          '      <value/>',
          '    </custom_attribute>',
          '  </custom_attributes>',
          '</device>',
          '',
        ].join('\n'),
    );
  });

  it('renders empty groups and attributes as empty arrays, and a list that parses back', () => {
    const bare = { ...v2, groups: [], custom_attributes: {} };
    const xml = renderDevicesV2Xml([bare, v2]);
    expect(xml).toContain('    <groups type="array"/>\n    <custom_attributes type="array"/>\n');
    const parsed = parser.parse(xml);
    expect(parsed.devices['@_type']).toBe('array');
    expect(parsed.devices.device).toHaveLength(2);
    expect(parsed.devices.device[1].custom_attributes.custom_attribute.map((p: { key: string }) => p.key)).toEqual(['region', '@_type', '#text', 'note']);
    expect(renderDevicesV2Xml([])).toBe(`${declaration}<devices type="array"/>\n`);
  });
});
