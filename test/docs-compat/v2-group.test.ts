import { systemModes } from '../support/start-system';
import { useSystem } from '../support/use-system';
import { expectDocumentedJsonList, expectDocumentedQuery, expectDocumentedXmlList, makeListExample } from './support/group-docs-d';

// doc/api/v2/group.md (devicemagic/forms_api_docs, a deleted file): the list's JSON and XML examples, with its query, in every mode.
describe.each(systemModes)('doc/api/v2/group.md: every example (%s)', (mode) => {
  const sys = useSystem(mode, { organizations: 1 });
  const path = () => `/api/v2/organizations/${sys.org.orgId}/groups`;
  beforeAll(async () => {
    await makeListExample(sys);
  });

  it('GET the list with the documented query: the JSON and XML examples\' shapes', async () => {
    await expectDocumentedJsonList(sys, path());
    await expectDocumentedXmlList(sys, path());
  });

  it('filter, tags[], items and page as the query table describes them', async () => {
    await expectDocumentedQuery(sys, path());
  });
});
