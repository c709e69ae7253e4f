import { z } from 'zod';
import { resourceContentTypes, resourceFilePayload, createResourcePayload, v4ResourceContentTypes } from '@formcast/contracts';
import { schemaOf, type JsonSchema } from '../openapi/json-schema';
import { asyncResourceUpdateView, resourceListItemView, resourceView, resourceWithStatusView } from '../openapi/views';
import { createResource, deleteResource, describeResource, downloadResource, listResources, updateResource } from '../routes/resources';
import { createResourceV3, deleteResourceV3, describeResourceV3, listResourcesV3, updateResourceV3 } from '../routes/resources-v3';
import { createResourceV4, showResourceUpdate, updateResourceV4 } from '../routes/resources-v4';
import type { RouteArea } from './declaration';
import { declareArea, deletedAnswer, type RouteSpec } from './declare';
import { pathIds } from './path-ids';

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

const resourceBody = (required: string[]) => ({
  json: {
    type: 'object',
    properties: {
      resource: { type: 'object', properties: { description: schemaOf(createResourcePayload.shape.description, 'input'), file }, required },
    },
    required: ['resource'],
  } satisfies JsonSchema,
  other: { 'application/x-www-form-urlencoded': '`resource[description]=…&resource[file][file_name]=…&resource[file][file_data]=<Base64>&resource[file][content_type]=…`' },
  description: 'Streamed: the Base64 is decoded as it arrives. The file is checked (type, size, bytes) before the answer.',
});

const listJson = z.strictObject({ resources: z.array(resourceListItemView) });

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

const v4Body = (required: string[]) => ({
  json: {
    type: 'object',
    properties: {
      resource: { type: 'object', properties: { description: schemaOf(createResourcePayload.shape.description, 'input'), file: v4File }, required },
    },
    required: ['resource'],
  } satisfies JsonSchema,
  other: { 'application/x-www-form-urlencoded': '`resource[description]=…&resource[file][file_name]=…&resource[file][file_data]=<Base64>&resource[file][mime_type]=…`' },
  description: 'Streamed as on v3. What can be told at once is refused at once (nothing queued); the file\'s own checks run in the job.',
});

const queued = { 202: { description: 'Queued: the job to poll', json: asyncResourceUpdateView } };
const fileErrors = [400, 404, 413, 415, 422];

/** Every generation is mounted under /api, before the global body parser, behind the organization's API token; JSON unless a route says otherwise. */
const resourceArea = (name: string, routes: RouteSpec[], readerPaths: string[]): RouteArea =>
  declareArea({ name, mount: '/api', tag: 'Resources', suffixes: '.json', routes, bodyReader: { limit: 'RESOURCE_MAX_BYTES', paths: readerPaths } });

/** Every generation's create and update: the handler streams the body, decoding the file's Base64 as it arrives, up to RESOURCE_MAX_BYTES. */
const streamedFile = { body: 'RESOURCE_MAX_BYTES', streamsBody: true } as const;

/** Resources API, spec 4.1: create and update stream their bodies (the Base64 decoded as it arrives). */
export const resources = resourceArea(
  'resources',
  [
    {
      method: 'post',
      path: '/resources',
      ...streamedFile,
      openapi: {
        summary: 'Upload a resource',
        body: resourceBody(['description', 'file']),
        answers: { 201: { description: 'The resource, described', json: z.strictObject({ resource: resourceView }) } },
        errors: fileErrors,
      },
      hostile: [{ suffix: '.json', json: 'resource' }],
      handler: ({ send, resourceMaxBytes }) => createResource(send, resourceMaxBytes),
    },
    {
      method: 'put',
      path: '/resources/:resourceId',
      ...streamedFile,
      openapi: {
        summary: 'Update a resource: its description, its file, or both (a new file bumps the version)',
        body: resourceBody([]),
        answers: { 200: { description: 'The resource, described', json: z.strictObject({ resource: resourceView }) } },
        errors: fileErrors,
      },
      hostile: [{ suffix: '.json', json: 'resourceUpdate' }],
      handler: ({ send, resourceMaxBytes }) => updateResource(send, resourceMaxBytes),
    },
    {
      method: 'get',
      path: '/resources',
      suffixes: '.json|.xml',
      openapi: {
        summary: 'List resources',
        answers: {
          200: {
            description: 'JSON unless asked for XML (v1/resource.md)',
            json: listJson,
            xml: '`<resources type="array"><resource><id/><original_filename/><version/><description/></resource>…</resources>`',
          },
        },
      },
      hostile: [{ suffix: '.json' }, { suffix: '.xml' }],
      handler: ({ send }) => listResources(send),
    },
    {
      method: 'get',
      path: '/resources/:resourceId/describe',
      openapi: {
        summary: 'Describe a resource (a spreadsheet\'s tables and columns)',
        answers: { 200: { description: 'The resource', json: z.strictObject({ resource: resourceView }) } },
      },
      handler: ({ send }) => describeResource(send),
    },
    {
      method: 'get',
      path: '/resources/:resourceId',
      openapi: {
        summary: 'Download a resource\'s file',
        description: 'With or without `.json` (a later client downloads `/api/resources/<id>.json`): the bytes either way.',
        answers: {
          200: {
            description: 'The bytes, with their stored Content-Type, a Content-Disposition naming the file and `X-Content-Type-Options: nosniff`',
            other: { '*/*': 'the file\'s bytes, with the type it was stored with' },
            headers: { 'Content-Disposition': '`attachment; filename="<ASCII>"; filename*=UTF-8\'\'<RFC 8187>`' },
          },
        },
      },
      hostile: [{}, { suffix: '.json' }],
      handler: ({ fetchWithAttachment }) => downloadResource(fetchWithAttachment),
    },
    {
      method: 'delete',
      path: '/resources/:resourceId',
      openapi: { summary: 'Delete a resource', answers: deletedAnswer },
      handler: ({ send }) => deleteResource(send),
    },
  ],
  ['/resources{.:format}', '/resources/*rest'],
);

/**
 * Resources v3: list and describe in JSON or XML; create and update take the first
 * generation's bodies and answer 202 with an empty body; delete answers 202. The same
 * records as the first generation's; download stays at /api/resources/<id>.
 */
export const resourcesV3 = resourceArea(
  'resources',
  [
    {
      method: 'post',
      path: '/v3/resources',
      ...streamedFile,
      openapi: {
        summary: 'Upload a resource (v3)',
        body: resourceBody(['description', 'file']),
        answers: { 202: { description: 'Stored and checked (empty body)' } },
        errors: fileErrors,
      },
      hostile: [{ suffix: '.json', json: 'resource' }],
      handler: ({ send, resourceMaxBytes }) => createResourceV3(send, resourceMaxBytes),
    },
    {
      method: 'put',
      path: '/v3/resources/:resourceId',
      ...streamedFile,
      openapi: {
        summary: 'Update a resource (v3)',
        body: resourceBody([]),
        answers: { 202: { description: 'Stored and checked (empty body)' } },
        errors: fileErrors,
      },
      hostile: [{ suffix: '.json', json: 'resourceUpdate' }],
      handler: ({ send, resourceMaxBytes }) => updateResourceV3(send, resourceMaxBytes),
    },
    {
      method: 'get',
      path: '/v3/resources',
      suffixes: '.json|.xml',
      openapi: {
        summary: 'List resources (v3)',
        answers: {
          200: {
            description: 'JSON unless asked for XML',
            json: listJson,
            xml: '`<resources type="array"><resource><id/><original_filename/><version/><description/></resource>…</resources>`',
          },
        },
      },
      hostile: [{ suffix: '.xml' }],
      handler: ({ send }) => listResourcesV3(send),
    },
    {
      method: 'get',
      path: '/v3/resources/:resourceId/describe',
      suffixes: '.json|.xml',
      openapi: {
        summary: 'Describe a resource (v3, with its status)',
        answers: {
          200: {
            description: 'JSON unless asked for XML',
            json: z.strictObject({ resource: resourceWithStatusView }),
            xml: '`<resource><id/><identifier/><original_filename/><version/><description/><generated_content_summary><tables><table><table_name/><table_id/><columns><column>…</column></columns></table>…</tables></generated_content_summary><status>Ready</status></resource>`',
          },
        },
      },
      hostile: [{ suffix: '.xml' }],
      handler: ({ send }) => describeResourceV3(send),
    },
    {
      method: 'delete',
      path: '/v3/resources/:resourceId',
      suffixes: '.json|.xml',
      openapi: { summary: 'Delete a resource (v3)', answers: { 202: { description: 'Deleted (empty body)' } } },
      handler: ({ send }) => deleteResourceV3(send),
    },
  ],
  ['/v3/resources{.:format}', '/v3/resources/*rest'],
);

/**
 * Resources v4 (resource_v4.md, resource_v4_migration.md): create and update answer 202 with
 * the queued job, which the poll shows.
 */
export const resourcesV4 = resourceArea(
  'resources',
  [
    {
      method: 'post',
      path: '/v4/resources',
      ...streamedFile,
      openapi: { summary: 'Upload a resource (v4: queued, 202 with the job)', body: v4Body(['description', 'file']), answers: queued, errors: [400, 413, 415] },
      hostile: [{ suffix: '.json', json: 'resourceV4' }],
      handler: ({ send, resourceMaxBytes }) => createResourceV4(send, resourceMaxBytes),
    },
    {
      method: 'put',
      path: '/v4/resources/:resourceId',
      ...streamedFile,
      openapi: { summary: 'Update a resource (v4: queued, 202 with the job)', body: v4Body([]), answers: queued, errors: [400, 404, 413, 415] },
      hostile: [{ suffix: '.json', json: 'resourceV4' }],
      handler: ({ send, resourceMaxBytes }) => updateResourceV4(send, resourceMaxBytes),
    },
    {
      method: 'get',
      path: '/v4/async_resource_updates/:updateId',
      openapi: {
        summary: 'A queued create or update: queued, processing, completed (with the resource) or failed (with why)',
        answers: { 200: { description: 'The job', json: asyncResourceUpdateView } },
      },
      hostile: [{ path: '/api/v4/async_resource_updates/00000000-0000-4000-8000-000000000000.json' }],
      handler: ({ send }) => showResourceUpdate(send),
    },
  ],
  ['/v4/resources{.:format}', '/v4/resources/*rest', '/v4/async_resource_updates/*rest'],
);
