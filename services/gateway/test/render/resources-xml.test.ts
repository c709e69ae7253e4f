import { XMLParser } from 'fast-xml-parser';
import type { ResourceListItemView } from '@formcast/contracts';
import { renderResourcesXml, renderResourceXml, type ResourceWithStatusView } from '../../src/render/resources-xml';

const declaration = '<?xml version="1.0" encoding="UTF-8"?>\n';

const spreadsheet: ResourceWithStatusView = {
  id: 12,
  identifier: '0b6c5bd6-8c36-4d0e-9d4b-0a5b1e8f6f11',
  original_filename: 'test_resource.xlsx',
  version: 2,
  description: 'Options & prices',
  status: 'Ready',
  generated_content_summary: [
    {
      table_name: 'test_resource.Sheet1',
      original_sheet_name: 'Sheet1',
      table_id: '5d7e4f0a-1b2c-4d3e-8f90-a1b2c3d4e5f6',
      columns: [
        { column_name: 'test_options', column_number: 1, column_id: '9a8b7c6d-5e4f-4a3b-9c2d-1e0f9a8b7c6d' },
        { column_name: 'price', column_number: 3, column_id: '1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d' },
      ],
    },
  ],
};

describe('renderResourcesXml', () => {
  it('writes <resources type="array"> with the four list fields, underscored, integers typed', () => {
    const items: ResourceListItemView[] = [
      { id: 3, original_filename: 'map.json', version: 0, description: 'North <field>' },
      { id: 4, original_filename: 'notes.txt', version: 1, description: '' },
    ];
    expect(renderResourcesXml(items)).toBe(
      declaration +
        [
          '<resources type="array">',
          '  <resource>',
          '    <id type="integer">3</id>',
          '    <original_filename>map.json</original_filename>',
          '    <version type="integer">0</version>',
          '    <description>North &lt;field&gt;</description>',
          '  </resource>',
          '  <resource>',
          '    <id type="integer">4</id>',
          '    <original_filename>notes.txt</original_filename>',
          '    <version type="integer">1</version>',
          '    <description/>',
          '  </resource>',
          '</resources>',
          '',
        ].join('\n'),
    );
  });

  it('writes an empty listing as an empty array container', () => {
    expect(renderResourcesXml([])).toBe(`${declaration}<resources type="array"/>\n`);
  });
});

describe('renderResourceXml', () => {
  it('nests the summary as <generated_content_summary><tables><table>…<columns><column>, with the status', () => {
    expect(renderResourceXml(spreadsheet)).toBe(
      declaration +
        [
          '<resource>',
          '  <id type="integer">12</id>',
          `  <identifier>${spreadsheet.identifier}</identifier>`,
          '  <original_filename>test_resource.xlsx</original_filename>',
          '  <version type="integer">2</version>',
          '  <description>Options &amp; prices</description>',
          '  <generated_content_summary>',
          '    <tables type="array">',
          '      <table>',
          '        <table_name>test_resource.Sheet1</table_name>',
          '        <original_sheet_name>Sheet1</original_sheet_name>',
          '        <table_id>5d7e4f0a-1b2c-4d3e-8f90-a1b2c3d4e5f6</table_id>',
          '        <columns type="array">',
          '          <column>',
          '            <column_name>test_options</column_name>',
          '            <column_number type="integer">1</column_number>',
          '            <column_id>9a8b7c6d-5e4f-4a3b-9c2d-1e0f9a8b7c6d</column_id>',
          '          </column>',
          '          <column>',
          '            <column_name>price</column_name>',
          '            <column_number type="integer">3</column_number>',
          '            <column_id>1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d</column_id>',
          '          </column>',
          '        </columns>',
          '      </table>',
          '    </tables>',
          '  </generated_content_summary>',
          '  <status>Ready</status>',
          '</resource>',
          '',
        ].join('\n'),
    );
  });

  it('writes a file without a summary as an empty <tables> container', () => {
    const xml = renderResourceXml({ ...spreadsheet, generated_content_summary: [] });
    expect(xml).toContain('  <generated_content_summary>\n    <tables type="array"/>\n  </generated_content_summary>\n');
  });

  it('replaces characters XML cannot carry, so the answer always parses', () => {
    const xml = renderResourceXml({ ...spreadsheet, description: 'bell \u0007 here', original_filename: 'a\uFFFEb.txt' });
    const parsed = new XMLParser({ parseTagValue: false }).parse(xml, true);
    expect(parsed.resource.description).toBe('bell \uFFFD here');
    expect(parsed.resource.original_filename).toBe('a\uFFFDb.txt');
  });
});
