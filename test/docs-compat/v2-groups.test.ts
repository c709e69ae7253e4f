import { systemModes } from '../support/start-system';
import { useSystem } from '../support/use-system';
import { makeListExample } from './support/group-docs-d';

// doc/api/v2/groups.md (devicemagic/forms_api_docs, a deleted file): its index names two endpoints, each answered in its format, in every mode.
describe.each(systemModes)('doc/api/v2/groups.md: every endpoint it lists (%s)', (mode) => {
  const sys = useSystem(mode, { organizations: 1 });
  beforeAll(async () => {
    await makeListExample(sys);
  });

  it('GET /api/v2/organizations/:organization_id/groups.json and .xml: 200, each in its format', async () => {
    const path = `/api/v2/organizations/${sys.org.orgId}/groups`;
    const json = await sys.api.get(`${path}.json`, { token: sys.org.token });
    expect([json.status, json.headers.get('content-type')]).toEqual([200, expect.stringMatching(/^application\/json/)]);
    expect(json.json().groups.length).toBe(3);
    const xml = await sys.api.get(`${path}.xml`, { token: sys.org.token });
    expect([xml.status, xml.headers.get('content-type')]).toEqual([200, expect.stringMatching(/^application\/xml/)]);
    expect(xml.text).toContain('<groups type="array">');
  });
});
