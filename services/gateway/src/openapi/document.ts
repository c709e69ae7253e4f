import { fullPath, routeTable, type RouteArea } from '../route-table';
import { errorResponses, operationObject, type HttpMethod, type PathTable } from './operation';

/** Each area of the API, one tag each, in the order the docs page shows them: its tag → its description. */
const areas: Record<string, string> = {
  'Organization (first generation)': 'Groups, devices, forms, the organization\'s oneshots and the Connections API, under `/organizations/<org>`.',
  'Push': 'Oneshots (first generation), dispatches (v2, v3), bulk dispatch and the badge.',
  'Devices and groups (second generation)': 'Reads under `/api/v2/organizations/<org>`, writes under `/api/organizations/<org>`.',
  'Resources': 'Files of an organization: the first generation and v3.',
  'Submissions': 'Submitting on behalf of a device, the authors, one submission\'s XML and the submissions database.',
  'Submission images': 'A submission\'s images, uploaded apart by its device (v3/submission_image.md), their MD5, and their download (birt_service.md).',
  'Reports': 'The performance metric report (report.md): a month\'s deliveries as CSV.',
  'Destinations': 'Where a form\'s submissions go: webhooks signed with Standard Webhooks, or a dispatch back to the device.',
  'Device side': 'What a device does with its enrollment code and then its own secret.',
  'Administration': 'Behind the admin token: organizations, API tokens, enrollment codes, dead letters.',
};

const methods: HttpMethod[] = ['get', 'post', 'put', 'patch', 'delete'];

/** An express template's OpenAPI path: `/groups/:groupId` → `/groups/{groupId}`. */
const openApiPath = (template: string) => template.replace(/[:*](\w+)/g, '{$1}');

/** The route table's operations of a tag, as paths (their auth and suffixes are the routes'). */
export function tablePaths(table: RouteArea[], tag: string): PathTable {
  const paths: PathTable = {};
  for (const area of table.filter((candidate) => candidate.tag === tag)) {
    for (const route of area.routes) {
      const item = (paths[openApiPath(fullPath(area, route))] ??= {});
      for (const method of route.method === 'all' ? methods : [route.method]) {
        if (item[method]) throw new Error(`OpenAPI: ${method.toUpperCase()} ${fullPath(area, route)} is declared twice`);
        item[method] = { ...route.openapi, auth: area.auth, suffixes: route.suffixes };
      }
    }
  }
  return paths;
}

/** The OpenAPI 3.1 document of every public route, from the route table (route-table/): one operation per declaration and method. */
export function buildOpenApiDocument(): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  const undescribed = routeTable.filter((area) => !Object.hasOwn(areas, area.tag));
  if (undescribed.length > 0) throw new Error(`OpenAPI: no tag ${undescribed[0]!.tag} (route-table/${undescribed[0]!.name}.ts)`);
  for (const tag of Object.keys(areas)) {
    for (const [path, item] of Object.entries(tablePaths(routeTable, tag))) {
      const described = (paths[path] ??= {});
      for (const method of methods) {
        const spec = item[method];
        if (!spec) continue;
        if (described[method]) throw new Error(`OpenAPI: ${method.toUpperCase()} ${path} is described twice`);
        described[method] = { tags: [tag], ...operationObject(method, path, spec) };
      }
    }
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Formcast API',
      version: (require('../../package.json') as { version: string }).version,
      description: [
        'Formcast speaks the public API of Device Magic, the hosted field-forms product (its API documentation: https://github.com/devicemagic/forms_api_docs), so integrators\' code written against that product runs against Formcast unchanged.',
        'Every generation of the Formcast HTTP API: the first (the 2018 client), the second and v3, bulk dispatch, the device side and administration.',
        'Organization routes authenticate with an API token as the HTTP Basic user name (any password); the device side with the device secret as a Bearer token; /admin with the admin token as a Bearer token.',
        'Many paths answer JSON or XML: a `.json`/`.xml` suffix picks the format, else Content-Type (writes) or Accept, else the endpoint\'s default (`x-formcast-suffixes` lists the suffixes a path takes). XML documents are described in words, not schematised.',
        'A 400 is plain text (`response_type: ERROR`, `response_code: bad_request`, `message: …`); other errors are `{"status","error","message"}` or `<errors><error>…</error></errors>`. POSTs take an `Idempotency-Key` header.',
      ].join('\n\n'),
    },
    servers: [{ url: '/', description: 'this server' }],
    tags: Object.entries(areas).map(([name, description]) => ({ name, description })),
    paths,
    components: {
      securitySchemes: {
        apiToken: { type: 'http', scheme: 'basic', description: 'The organization\'s API token as the user name; the password is ignored' },
        deviceSecret: { type: 'http', scheme: 'bearer', description: 'The device secret shown once at enrollment' },
        adminToken: { type: 'http', scheme: 'bearer', description: 'ADMIN_TOKEN (embedded mode: generated into DATA_DIR/admin-token at first start)' },
      },
      responses: errorResponses(),
    },
  };
}
