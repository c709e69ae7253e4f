import { z } from 'zod';
import { resourceContentTypes, resourceFilePayload, createResourcePayload, v4ResourceContentTypes } from '@formcast/contracts';
import { schemaOf, type JsonSchema } from './json-schema';
import type { OperationSpec, PathTable } from './operation';
import { asyncResourceUpdateView, resourceListItemView, resourceView, resourceWithStatusView } from './views';

/** Files of an organization: the first generation under /api/resources, v3 under /api/v3/resources. */

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

const describeV1: OperationSpec = {
  summary: 'Describe a resource (a spreadsheet\'s tables and columns)',
  auth: 'apiToken',
  suffixes: '.json',
  answers: { 200: { description: 'The resource', json: z.strictObject({ resource: resourceView }) } },
  errors: [404],
};

export const resourcePaths: PathTable = {
  '/api/resources': {
    get: {
      summary: 'List resources',
      auth: 'apiToken',
      suffixes: '.json|.xml',
      answers: {
        200: {
          description: 'JSON unless asked for XML (v1/resource.md)',
          json: listJson,
          xml: '`<resources type="array"><resource><id/><original_filename/><version/><description/></resource>…</resources>`',
        },
      },
    },
    post: {
      summary: 'Upload a resource',
      auth: 'apiToken',
      suffixes: '.json',
      body: resourceBody(['description', 'file']),
      answers: { 201: { description: 'The resource, described', json: z.strictObject({ resource: resourceView }) } },
      errors: fileErrors,
    },
  },
  '/api/resources/{resourceId}': {
    get: {
      summary: 'Download a resource\'s file',
      description: 'With or without `.json` (a later client downloads `/api/resources/<id>.json`): the bytes either way.',
      auth: 'apiToken',
      suffixes: '.json',
      answers: {
        200: {
          description: 'The bytes, with their stored Content-Type, a Content-Disposition naming the file and `X-Content-Type-Options: nosniff`',
          other: { '*/*': 'the file\'s bytes, with the type it was stored with' },
          headers: { 'Content-Disposition': '`attachment; filename="<ASCII>"; filename*=UTF-8\'\'<RFC 8187>`' },
        },
      },
      errors: [404],
    },
    put: {
      summary: 'Update a resource: its description, its file, or both (a new file bumps the version)',
      auth: 'apiToken',
      suffixes: '.json',
      body: resourceBody([]),
      answers: { 200: { description: 'The resource, described', json: z.strictObject({ resource: resourceView }) } },
      errors: fileErrors,
    },
    delete: { summary: 'Delete a resource', auth: 'apiToken', suffixes: '.json', answers: { 200: { description: 'Deleted (empty body)' } }, errors: [404] },
  },
  '/api/resources/{resourceId}/describe': { get: describeV1 },
  '/api/v3/resources': {
    get: {
      summary: 'List resources (v3)',
      auth: 'apiToken',
      suffixes: '.json|.xml',
      answers: {
        200: {
          description: 'JSON unless asked for XML',
          json: listJson,
          xml: '`<resources type="array"><resource><id/><original_filename/><version/><description/></resource>…</resources>`',
        },
      },
    },
    post: {
      summary: 'Upload a resource (v3)',
      auth: 'apiToken',
      suffixes: '.json',
      body: resourceBody(['description', 'file']),
      answers: { 202: { description: 'Stored and checked (empty body)' } },
      errors: fileErrors,
    },
  },
  '/api/v3/resources/{resourceId}': {
    put: {
      summary: 'Update a resource (v3)',
      auth: 'apiToken',
      suffixes: '.json',
      body: resourceBody([]),
      answers: { 202: { description: 'Stored and checked (empty body)' } },
      errors: fileErrors,
    },
    delete: { summary: 'Delete a resource (v3)', auth: 'apiToken', suffixes: '.json|.xml', answers: { 202: { description: 'Deleted (empty body)' } }, errors: [404] },
  },
  '/api/v3/resources/{resourceId}/describe': {
    get: {
      summary: 'Describe a resource (v3, with its status)',
      auth: 'apiToken',
      suffixes: '.json|.xml',
      answers: {
        200: {
          description: 'JSON unless asked for XML',
          json: z.strictObject({ resource: resourceWithStatusView }),
          xml: '`<resource><id/><identifier/><original_filename/><version/><description/><generated_content_summary><tables><table><table_name/><table_id/><columns><column>…</column></columns></table>…</tables></generated_content_summary><status>Ready</status></resource>`',
        },
      },
      errors: [404],
    },
  },
  '/api/v4/resources': {
    post: { summary: 'Upload a resource (v4: queued, 202 with the job)', auth: 'apiToken', suffixes: '.json', body: v4Body(['description', 'file']), answers: queued, errors: [400, 413, 415] },
  },
  '/api/v4/resources/{resourceId}': {
    put: { summary: 'Update a resource (v4: queued, 202 with the job)', auth: 'apiToken', suffixes: '.json', body: v4Body([]), answers: queued, errors: [400, 404, 413, 415] },
  },
  '/api/v4/async_resource_updates/{updateId}': {
    get: {
      summary: 'A queued create or update: queued, processing, completed (with the resource) or failed (with why)',
      auth: 'apiToken',
      suffixes: '.json',
      answers: { 200: { description: 'The job', json: asyncResourceUpdateView } },
      errors: [404],
    },
  },
};
