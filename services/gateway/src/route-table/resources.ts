import { z } from 'zod';
import { resourceContentTypes, resourceFilePayload, createResourcePayload, v4ResourceContentTypes } from '@formcast/contracts';
import { schemaOf, type JsonSchema } from '../openapi/json-schema';
import type { OperationSpec } from '../openapi/operation';
import { answerOf, wrappedBody } from '../openapi/operation-parts';
import { asyncResourceUpdateView, resourceListItemView, resourceView, resourceWithStatusView } from '../openapi/views';
import { createResource, deleteResource, describeResource, downloadResource, listResources, updateResource } from '../routes/resources';
import { createResourceV3, deleteResourceV3, describeResourceV3, listResourcesV3, updateResourceV3 } from '../routes/resources-v3';
import { createResourceV4, showResourceUpdate, updateResourceV4 } from '../routes/resources-v4';
import type { RouteArea } from './declaration';
import { declareArea, type RouteSpec } from './declare';
import { deletion, read, type More } from './route-kinds';

const file: JsonSchema = {
  type: 'object',
  properties: {
    file_name: schemaOf(resourceFilePayload.shape.file_name, 'input'),
    file_data: { type: 'string', contentEncoding: 'base64', description: 'the file\'s bytes in Base64 (line breaks ignored); at most RESOURCE_MAX_BYTES once decoded' },
    content_type: {
      description: `one of ${resourceContentTypes.join(', ')}; also \`["<mime>", null]\` as Python's mimetypes.guess_type() gives it`,
      oneOf: [{ type: 'string', enum: [...resourceContentTypes] }, { type: 'array', prefixItems: [{ type: 'string' }, { type: 'null' }], minItems: 1, maxItems: 2 }],
    },
  },
  required: ['file_name', 'file_data', 'content_type'],
};

/** v4's file object: `mime_type` instead of `content_type`, and no map overlays (resource_v4.md). */
const v4File: JsonSchema = {
  type: 'object',
  properties: {
    file_name: schemaOf(resourceFilePayload.shape.file_name, 'input'),
    file_data: { type: 'string', contentEncoding: 'base64', description: 'the file\'s bytes in Base64; at most RESOURCE_MAX_BYTES once decoded' },
    mime_type: { type: 'string', enum: [...v4ResourceContentTypes] },
  },
  required: ['file_name', 'file_data', 'mime_type'],
};

/**
 * `{"resource": {"description", "file"}}`, or the same form-encoded, with the generation's
 * file object (its type under `typeField`); `required` names what the request must give.
 */
const bodyWithFile = (fileSchema: JsonSchema, typeField: string, description: string) => (required: string[]) => ({
  json: wrappedBody('resource', { description: schemaOf(createResourcePayload.shape.description, 'input'), file: fileSchema }, required),
  other: { 'application/x-www-form-urlencoded': `\`resource[description]=…&resource[file][file_name]=…&resource[file][file_data]=<Base64>&resource[file][${typeField}]=…\`` },
  description,
});

const resourceBody = bodyWithFile(file, 'content_type', 'Streamed: the Base64 is decoded as it arrives. The file is checked (type, size, bytes) before the answer.');
const v4Body = bodyWithFile(v4File, 'mime_type', 'Streamed as on v3. What can be told at once is refused at once (nothing queued); the file\'s own checks run in the job.');

const listJson = { resources: z.array(resourceListItemView) };
const listXml = '`<resources type="array"><resource><id/><original_filename/><version/><description/></resource>…</resources>`';
const describedV3Xml =
  '`<resource><id/><identifier/><original_filename/><version/><description/><generated_content_summary><tables><table><table_name/><table_id/><columns><column>…</column></columns></table>…</tables></generated_content_summary><status>Ready</status></resource>`';
/** v3's reads answer XML too; the battery asks for it. */
const v3JsonOrXml: More = { suffixes: '.json|.xml', hostile: [{ suffix: '.xml' }] };

const storedV3 = { 202: { description: 'Stored and checked (empty body)' } };
const queued = { 202: { description: 'Queued: the job to poll', json: asyncResourceUpdateView } };

/**
 * Every generation is mounted under /api, before the global body parser, behind the
 * organization's API token; JSON unless a route says otherwise. Any body on its paths is read
 * up to RESOURCE_MAX_BYTES: each collection's (`/resources`, with its suffix) and anything below one.
 */
const resourceArea = (routes: RouteSpec[]): RouteArea =>
  declareArea({ name: 'resources', mount: '/api', tag: 'Resources', suffixes: '.json', routes, bodyReader: { limit: 'RESOURCE_MAX_BYTES', paths: readerPathsOf(routes) } });

function readerPathsOf(routes: RouteSpec[]): string[] {
  const paths = routes.map(({ path }) => {
    const [collection, below] = path.split('/:');
    return below === undefined ? `${collection}{.:format}` : `${collection}/*rest`;
  });
  return [...new Set(paths)];
}

/**
 * Every generation's create and update: the handler streams the body, decoding the file's
 * Base64 as it arrives, up to RESOURCE_MAX_BYTES; the battery sends its `hostileBody`. A
 * file's errors unless the operation names its own.
 */
function streamedFile(method: 'post' | 'put', path: string, hostileBody: string, handler: RouteSpec['handler'], openapi: Omit<OperationSpec, 'auth' | 'suffixes'>): RouteSpec {
  return { method, path, body: 'RESOURCE_MAX_BYTES', streamsBody: true, openapi: { errors: [400, 404, 413, 415, 422], ...openapi }, hostile: [{ suffix: '.json', json: hostileBody }], handler };
}

/** Resources API, spec 4.1: create and update stream their bodies (the Base64 decoded as it arrives). */
export const resources = resourceArea([
  streamedFile('post', '/resources', 'resource', ({ send, resourceMaxBytes }) => createResource(send, resourceMaxBytes), {
    summary: 'Upload a resource',
    body: resourceBody(['description', 'file']),
    answers: { 201: answerOf('The resource, described', { resource: resourceView }) },
  }),
  streamedFile('put', '/resources/:resourceId', 'resourceUpdate', ({ send, resourceMaxBytes }) => updateResource(send, resourceMaxBytes), {
    summary: 'Update a resource: its description, its file, or both (a new file bumps the version)',
    body: resourceBody([]),
    answers: { 200: answerOf('The resource, described', { resource: resourceView }) },
  }),
  read('/resources', 'List resources', answerOf('JSON unless asked for XML (v1/resource.md)', listJson, listXml), ({ send }) => listResources(send), {
    suffixes: '.json|.xml',
    hostile: [{ suffix: '.json' }, { suffix: '.xml' }],
  }),
  read('/resources/:resourceId/describe', 'Describe a resource (a spreadsheet\'s tables and columns)', answerOf('The resource', { resource: resourceView }), ({ send }) => describeResource(send)),
  read(
    '/resources/:resourceId',
    'Download a resource\'s file',
    {
      description: 'The bytes, with their stored Content-Type, a Content-Disposition naming the file and `X-Content-Type-Options: nosniff`',
      other: { '*/*': 'the file\'s bytes, with the type it was stored with' },
      headers: { 'Content-Disposition': '`attachment; filename="<ASCII>"; filename*=UTF-8\'\'<RFC 8187>`' },
    },
    ({ fetchWithAttachment }) => downloadResource(fetchWithAttachment),
    {
      openapi: { description: 'With or without `.json` (a later client downloads `/api/resources/<id>.json`): the bytes either way.' },
      hostile: [{}, { suffix: '.json' }],
    },
  ),
  deletion('/resources/:resourceId', 'Delete a resource', ({ send }) => deleteResource(send)),
]);

/**
 * Resources v3: list and describe in JSON or XML; create and update take the first
 * generation's bodies and answer 202 with an empty body; delete answers 202. The same
 * records as the first generation's; download stays at /api/resources/<id>.
 */
export const resourcesV3 = resourceArea([
  streamedFile('post', '/v3/resources', 'resource', ({ send, resourceMaxBytes }) => createResourceV3(send, resourceMaxBytes), {
    summary: 'Upload a resource (v3)',
    body: resourceBody(['description', 'file']),
    answers: storedV3,
  }),
  streamedFile('put', '/v3/resources/:resourceId', 'resourceUpdate', ({ send, resourceMaxBytes }) => updateResourceV3(send, resourceMaxBytes), {
    summary: 'Update a resource (v3)',
    body: resourceBody([]),
    answers: storedV3,
  }),
  read('/v3/resources', 'List resources (v3)', answerOf('JSON unless asked for XML', listJson, listXml), ({ send }) => listResourcesV3(send), v3JsonOrXml),
  read('/v3/resources/:resourceId/describe', 'Describe a resource (v3, with its status)', answerOf('JSON unless asked for XML', { resource: resourceWithStatusView }, describedV3Xml), ({ send }) => describeResourceV3(send), v3JsonOrXml),
  {
    method: 'delete',
    path: '/v3/resources/:resourceId',
    suffixes: '.json|.xml',
    openapi: { summary: 'Delete a resource (v3)', answers: { 202: { description: 'Deleted (empty body)' } } },
    handler: ({ send }) => deleteResourceV3(send),
  },
]);

/**
 * Resources v4 (resource_v4.md, resource_v4_migration.md): create and update answer 202 with
 * the queued job, which the poll shows.
 */
export const resourcesV4 = resourceArea([
  streamedFile('post', '/v4/resources', 'resourceV4', ({ send, resourceMaxBytes }) => createResourceV4(send, resourceMaxBytes), {
    summary: 'Upload a resource (v4: queued, 202 with the job)',
    body: v4Body(['description', 'file']),
    answers: queued,
    errors: [400, 413, 415],
  }),
  streamedFile('put', '/v4/resources/:resourceId', 'resourceV4', ({ send, resourceMaxBytes }) => updateResourceV4(send, resourceMaxBytes), {
    summary: 'Update a resource (v4: queued, 202 with the job)',
    body: v4Body([]),
    answers: queued,
    errors: [400, 404, 413, 415],
  }),
  read(
    '/v4/async_resource_updates/:updateId',
    'A queued create or update: queued, processing, completed (with the resource) or failed (with why)',
    { description: 'The job', json: asyncResourceUpdateView },
    ({ send }) => showResourceUpdate(send),
    { hostile: [{ path: '/api/v4/async_resource_updates/00000000-0000-4000-8000-000000000000.json' }] },
  ),
]);
