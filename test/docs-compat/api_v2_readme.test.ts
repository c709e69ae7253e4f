import { describeIndexDoc } from './support/readme-docs-d';

/**
 * doc/api_v2_readme.md (devicemagic/forms_api_docs): its preamble (UTF-8, JSON/XML, HTTP
 * Basic, the response codes) and the endpoints it lists, Submission v3 for devices and for
 * users, JSON and XML, sent in every mode; and the second generation's device paths README's
 * table credits it with. The submission examples are v3/devices/submission*.md's suites'.
 */
describeIndexDoc('doc/api_v2_readme.md', {
  reads: [],
  writes: [
    { label: 'Devices: Submission v3, JSON (empty body: 400)', method: 'POST', path: (c) => `/api/v3/devices/${c.f.device.identifier}/submissions.json`, body: () => ({}), status: 400 },
    { label: 'Devices: Submission v3, XML (empty body: 400)', method: 'POST', path: (c) => `/api/v3/devices/${c.f.device.identifier}/submissions.xml`, body: () => ({}), status: 400 },
    { label: 'Users: Submission v3, JSON: no web users, 404', method: 'POST', path: () => '/api/v3/users/1/submissions.json', body: () => ({}), status: 404 },
    { label: 'Users: Submission v3, XML: no web users, 404', method: 'POST', path: () => '/api/v3/users/1/submissions.xml', body: () => ({}), status: 404 },
    { label: 'POST /api/v2/organizations/<org>/devices/<id>/approve', method: 'POST', path: (c) => `/api/v2/organizations/${c.sys.org.orgId}/devices/${c.pendingId}/approve`, status: 200 },
    { label: 'DELETE /api/v2/organizations/<org>/devices/<id>', method: 'DELETE', path: (c) => `/api/v2/organizations/${c.sys.org.orgId}/devices/${c.pendingId}`, status: 200 },
  ],
});
