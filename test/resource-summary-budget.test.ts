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

describe.each(systemModes)('No resource is committed after its request was answered 504 (%s)', (mode) => {
  // The summary may take long here (no budget to speak of); the gateway gives up after 1.2 s.
  const sys = useSystem(mode, {
    organizations: 2,
    env: { COMMAND_TIMEOUT_MS: '1200', RESOURCE_SUMMARY_MAX_BYTES: String(1024 * 1024 * 1024), RESOURCE_SUMMARY_MAX_CPU_MS: '600000' },
  });
  const listed = async (o: TestOrganization) => (await sys.api.get('/api/resources.json', { token: o.token })).text;

  it('answers 504 for an upload whose checks outlast COMMAND_TIMEOUT_MS, and stores nothing, then or later', async () => {
    const [org, other] = sys.orgs;
    const mineBefore = await listed(org);
    const theirsBefore = await listed(other);
    const slow = xlsxCommentBomb(24 * 1024 * 1024);
    const res = await sys.api.post('/api/resources.json', { token: org.token, json: { resource: { description: 'Slow', file: fileJson('slow.xlsx', slow) } } });
    expect(res.status).toBe(504);
    // Long enough for the summary to end and a commit to have happened, had it been allowed.
    await new Promise((resolve) => setTimeout(resolve, 4000));
    expect(await listed(org)).toBe(mineBefore);
    expect(await listed(other)).toBe(theirsBefore);
  }, 30_000);
});
