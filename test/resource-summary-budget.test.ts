import { readFileSync } from 'node:fs';
import { mime, realSpreadsheetPath, xlsxCommentBomb } from './fixtures/resource-files';
import type { TestOrganization } from './support/fixtures';
import { systemModes } from './support/start-system';
import { useSystem } from './support/use-system';

const fileJson = (fileName: string, bytes: Buffer) => ({ file_name: fileName, file_data: bytes.toString('base64'), content_type: mime.xlsx });

describe.each(systemModes)('The spreadsheet summary has a budget: an xlsx bomb is 422 and nothing is stored (%s)', (mode) => {
  const sys = useSystem(mode, { organizations: 2, env: { RESOURCE_SUMMARY_MAX_BYTES: String(1024 * 1024) } });
  const create = (o: TestOrganization, description: string, file: unknown) =>
    sys.api.post('/api/resources.json', { token: o.token, json: { resource: { description, file } } });
  const listed = async (o: TestOrganization) => (await sys.api.get('/api/resources.json', { token: o.token })).text;

  it('refuses a workbook whose first row hides 8 MB of comments past RESOURCE_SUMMARY_MAX_BYTES, stores nothing, and still takes the real fixture', async () => {
    const [org, other] = sys.orgs;
    expect((await create(other, 'Theirs', fileJson('test_resource.xlsx', readFileSync(realSpreadsheetPath)))).status).toBe(201);
    const mineBefore = await listed(org);
    const theirsBefore = await listed(other);

    const bomb = xlsxCommentBomb(8 * 1024 * 1024);
    const refused = await create(org, 'Bomb', fileJson('bomb.xlsx', bomb));
    expect(refused.status).toBe(422);
    expect(refused.json()).toMatchObject({ status: '422', message: expect.stringMatching(/RESOURCE_SUMMARY_MAX_BYTES.*nothing was stored/) });
    expect(await listed(org)).toBe(mineBefore);

    const real = await create(org, 'Options', fileJson('test_resource.xlsx', readFileSync(realSpreadsheetPath)));
    expect(real.status).toBe(201);
    expect(real.json().resource.generated_content_summary[0].columns[0].column_name).toBe('test_options');
    expect(await listed(other)).toBe(theirsBefore);
  });
});
