import { systemModes } from '../support/start-system';
import { useSystem } from '../support/use-system';
import { expectDocumentedXmlList, makeListExample } from './support/group-docs-d';

// doc/api/v2/groups-xml.md (devicemagic/forms_api_docs, a deleted file): the XML list's example, with its query, in every mode.
describe.each(systemModes)('doc/api/v2/groups-xml.md: every example (%s)', (mode) => {
  const sys = useSystem(mode, { organizations: 1 });
  beforeAll(async () => {
    await makeListExample(sys);
  });

  it('GET groups.xml with the documented query: the example\'s shape, <tags><name> included', async () => {
    await expectDocumentedXmlList(sys, `/api/v2/organizations/${sys.org.orgId}/groups`);
  });
});
