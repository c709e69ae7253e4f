import { systemModes } from '../support/start-system';
import { useSystem } from '../support/use-system';
import { expectDocumentedJsonList, expectDocumentedQuery, makeListExample } from './support/group-docs-d';

// doc/api/v2/groups-json.md (devicemagic/forms_api_docs, a deleted file): the JSON list's example, with its query, in every mode.
describe.each(systemModes)('doc/api/v2/groups-json.md: every example (%s)', (mode) => {
  const sys = useSystem(mode, { organizations: 1 });
  const path = () => `/api/v2/organizations/${sys.org.orgId}/groups`;
  beforeAll(async () => {
    await makeListExample(sys);
  });

  it('GET groups.json with the documented query: the example\'s shape', async () => {
    await expectDocumentedJsonList(sys, path());
  });

  it('filter, tags[], items and page as the query table describes them', async () => {
    await expectDocumentedQuery(sys, path());
  });
});
