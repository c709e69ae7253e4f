import { describeIndexDoc, type Context, type IndexedEndpoint } from './support/readme-docs-d';

/**
 * README.md of devicemagic/forms_api_docs (the stored versions read: today's, the one listing
 * every generation with forms, groups and reports, and the "API V3" ones): its preamble, and
 * every endpoint it lists, sent in every mode. Writes with an empty body show the route takes
 * the request (400 naming what is missing, nothing written); the documented bodies are the
 * linked files' suites'.
 */

const org = (c: Context) => c.sys.org.orgId;
const thisMonth = () => `month=${new Date().getUTCMonth() + 1}&year=${new Date().getUTCFullYear()}`;
const dev = (c: Context) => c.f.device.identifier;
const get = (label: string, path: (c: Context) => string, status: number | number[] = 200): IndexedEndpoint => ({ label, method: 'GET', path, status });

describeIndexDoc('README.md', {
  reads: [
    // Destination
    get('GET /api/forms/:form_id/destinations.json', (c) => `/api/forms/${c.f.formId}/destinations.json`),
    get('GET /api/forms/:form_id/destinations/:destination_id.json', (c) => `/api/forms/${c.f.formId}/destinations/${c.f.destinationId}.json`),
    // Device
    get('GET /api/v2/organizations/:organization_id/devices.(json|xml): .json', (c) => `/api/v2/organizations/${org(c)}/devices.json`),
    get('GET /api/v2/organizations/:organization_id/devices.(json|xml): .xml', (c) => `/api/v2/organizations/${org(c)}/devices.xml`),
    get('GET /api/v2/organizations/:organization_id/devices/:device_id.json', (c) => `/api/v2/organizations/${org(c)}/devices/${c.f.device.id}.json`),
    // Dispatch
    get('GET /api/v3/dispatch_authors.(json|xml)', () => '/api/v3/dispatch_authors.xml'),
    get('GET /api/v3/devices/:device_identifier/dispatches.(json|xml)', (c) => `/api/v3/devices/${dev(c)}/dispatches.json`),
    get('GET /api/v3/users/:user/dispatches.(json|xml): Formcast has no web users, 404 saying so', () => '/api/v3/users/1/dispatches.json', 404),
    get('GET /api/v3/organization_dispatches.(json|xml)', () => '/api/v3/organization_dispatches.xml'),
    get('GET /api/v3/dispatches/:dispatch_id.(json|xml)', (c) => `/api/v3/dispatches/${c.f.oneshotId}.json`),
    get('GET /api/v3/devices/:device_identifier/dispatches/:dispatch_id.(json|xml)', (c) => `/api/v3/devices/${dev(c)}/dispatches/${c.f.oneshotId}.xml`),
    get('GET /api/v3/users/:user/dispatches/:dispatch_id.(json|xml): no web users, 404', (c) => `/api/v3/users/1/dispatches/${c.f.oneshotId}.json`, 404),
    // Form
    get('GET /organizations/:organization_id/forms.(xml|json)', (c) => `/organizations/${org(c)}/forms.xml`),
    get('GET /organizations/:organization_id/forms/:form_id.(xml|json): .json', (c) => `/organizations/${org(c)}/forms/${c.f.formId}.json`),
    get('GET /organizations/:organization_id/forms/:form_id.(xml|json): .xml (XForms)', (c) => `/organizations/${org(c)}/forms/${c.f.formId}.xml`),
    // Group
    get('GET /api/v2/organizations/:organization_id/groups.(json|xml)', (c) => `/api/v2/organizations/${org(c)}/groups.json`),
    // Resource
    get('GET /api/resources', () => '/api/resources'),
    get('GET /api/resources/:resource_id', (c) => `/api/resources/${c.f.resourceId}`),
    // A text file: describing it answers what it can (a spreadsheet's tables; none here).
    get('GET /api/v3/resources/:resource_id/describe', (c) => `/api/v3/resources/${c.f.resourceId}/describe`, [200, 422]),
    // Submission
    get('GET /api/forms/:form_id/device_magic_database.json', (c) => `/api/forms/${c.f.template.id}/device_magic_database.json`),
    get('GET /api/v3/submission_authors.(json|xml)', () => '/api/v3/submission_authors.json'),
    get('GET /api/v3/submissions/:user_id (the submission\'s id: submission.md)', (c) => `/api/v3/submissions/${c.submissionId}`),
    // Report (report.md; the index's path beside v3's)
    get('GET /api/performance_metric_report', () => `/api/performance_metric_report?${thisMonth()}`),
    get('GET /api/v3/reports/performance_metric_report', () => `/api/v3/reports/performance_metric_report?${thisMonth()}`),
    // Submission images (submission_image.md; v3/birt_service.md): an image never uploaded is 404, no uuid is 400
    get('GET /api/v3/devices/:device_identifier/submission_images/:image_identifier/get_md5 (never uploaded: 404)', (c) => `/api/v3/devices/${dev(c)}/submission_images/never-uploaded/get_md5`, 404),
    get('GET /api/v3/download_submission_image (no uuid: 400)', () => '/api/v3/download_submission_image', 400),
    get('GET /api/v3/download_submission_image?uuid= (unknown: 404)', () => '/api/v3/download_submission_image?uuid=00000000-0000-4000-8000-000000000000', 404),
  ],
  writes: [
    { label: 'POST /api/forms/:form_id/destinations.json (empty body: 400)', method: 'POST', path: (c) => `/api/forms/${c.f.formId}/destinations.json`, body: () => ({}), status: 400 },
    { label: 'PUT /api/forms/:form_id/destinations/:destination_id.json', method: 'PUT', path: (c) => `/api/forms/${c.f.formId}/destinations/${c.f.destinationId}.json`, body: () => ({ destination: { description: 'README hook' } }), status: 200 },
    { label: 'POST /api/organizations/[org_id]/devices (approving: device.md\'s …/devices/:device_id/approve)', method: 'POST', path: (c) => `/api/organizations/${org(c)}/devices/${c.pendingId}/approve`, status: 200 },
    { label: 'PUT /api/organizations/[org_id]/devices/:device_id', method: 'PUT', path: (c) => `/api/organizations/${org(c)}/devices/${c.f.device.id}`, body: () => ({ device: { owner: 'README owner' } }), status: 202 },
    { label: 'POST /api/v3/devices/:device_identifier/dispatches.json (empty body: 400)', method: 'POST', path: (c) => `/api/v3/devices/${dev(c)}/dispatches.json`, body: () => ({}), status: 400 },
    { label: 'POST /api/v3/users/:user/dispatches.json: no web users, 404', method: 'POST', path: () => '/api/v3/users/1/dispatches.json', body: () => ({}), status: 404 },
    { label: 'PATCH /api/v3/devices/:device_identifier/dispatches/:dispatch_id.json', method: 'PATCH', path: (c) => `/api/v3/devices/${dev(c)}/dispatches/${c.f.oneshotId}.json`, body: () => ({}), status: [200, 400] },
    { label: 'PATCH /api/v3/users/:user/dispatches/:dispatch_id.json: no web users, 404', method: 'PATCH', path: (c) => `/api/v3/users/1/dispatches/${c.f.oneshotId}.json`, body: () => ({}), status: 404 },
    { label: 'POST /organizations/:organization_id/forms.(xml|json) (empty body: 400)', method: 'POST', path: (c) => `/organizations/${org(c)}/forms.json`, body: () => ({}), status: 400 },
    { label: 'PUT /organizations/:organization_id/forms/:form_id.(xml|json) (empty body: 400)', method: 'PUT', path: (c) => `/organizations/${org(c)}/forms/${c.f.formId}.json`, body: () => ({}), status: 400 },
    { label: 'POST /organizations/:organization_id/forms/:form_id/properties.(xml|json)', method: 'POST', path: (c) => `/organizations/${org(c)}/forms/${c.f.formId}/properties.xml`, body: () => '<form_properties><group>Default</group></form_properties>', status: 200 },
    { label: 'PUT api/v3/forms/:form_id/lock', method: 'PUT', path: (c) => `/api/v3/forms/${c.f.formId}/lock`, status: 200 },
    { label: 'PUT api/v3/forms/:form_id/unlock', method: 'PUT', path: (c) => `/api/v3/forms/${c.f.formId}/unlock`, status: 200 },
    { label: 'POST /api/organizations/[org_id]/groups', method: 'POST', path: (c) => `/api/organizations/${org(c)}/groups`, body: () => ['README group'], status: 201 },
    { label: 'PUT /api/organizations/[org_id]/groups/:group_id', method: 'PUT', path: (c) => `/api/organizations/${org(c)}/groups/${c.f.groupId}`, body: () => ({ group: { tags: ['readme'] } }), status: 200 },
    { label: 'POST /api/v3/resources (empty body: 400)', method: 'POST', path: () => '/api/v3/resources', body: () => ({}), status: 400 },
    { label: 'PUT /api/v3/resources/:resource_id (empty body: 400)', method: 'PUT', path: (c) => `/api/v3/resources/${c.f.resourceId}`, body: () => ({}), status: 400 },
    { label: 'POST /api/v3/devices/:device_identifier/submissions.json (empty body: 400)', method: 'POST', path: (c) => `/api/v3/devices/${dev(c)}/submissions.json`, body: () => ({}), status: 400 },
    { label: 'POST /api/v3/devices/:device_identifier/submissions_image (no image: 400)', method: 'POST', path: (c) => `/api/v3/devices/${dev(c)}/submissions_image?image_identifier=readme&submission_identifer=readme`, status: 400 },
    { label: 'POST /api/v3/users/:user/submissions.json: no web users, 404', method: 'POST', path: () => '/api/v3/users/1/submissions.json', body: () => ({}), status: 404 },
    // Deletes, last.
    { label: 'DELETE /api/forms/:form_id/destinations/:destination_id.json', method: 'DELETE', path: (c) => `/api/forms/${c.f.formId}/destinations/${c.f.destinationId}.json`, status: 200 },
    { label: 'DELETE /api/v3/dispatchs/:dispatch_id.json (dispatch.md: /api/v3/dispatches/:dispatch_id)', method: 'DELETE', path: (c) => `/api/v3/dispatches/${c.f.oneshotId}.json`, status: 200 },
    { label: 'POST /api/v3/devices/:device_identifier/dispatches/destroy_all.json', method: 'POST', path: (c) => `/api/v3/devices/${dev(c)}/dispatches/destroy_all.json`, status: 200 },
    { label: 'POST /api/v3/users/:user/dispatches/destroy_all.json: no web users, 404', method: 'POST', path: () => '/api/v3/users/1/dispatches/destroy_all.json', status: 404 },
    { label: 'DELETE /api/organizations/[org_id]/groups/:group_id', method: 'DELETE', path: (c) => `/api/organizations/${org(c)}/groups/${c.f.groupId}`, status: 200 },
    { label: 'DELETE /api/organizations/[org_id]/devices/:device_id', method: 'DELETE', path: (c) => `/api/organizations/${org(c)}/devices/${c.pendingId}`, status: 200 },
    { label: 'DELETE /api/resources/:resource_id', method: 'DELETE', path: (c) => `/api/resources/${c.f.resourceId}`, status: 200 },
    { label: 'DELETE /organizations/:organization_id/forms/:form_id', method: 'DELETE', path: (c) => `/organizations/${org(c)}/forms/${c.f.formId}`, status: 200 },
  ],
});
