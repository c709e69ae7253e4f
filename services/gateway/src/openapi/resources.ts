import { z } from 'zod';
import { resourceContentTypes, resourceFilePayload, createResourcePayload } from '@formcast/contracts';
import { schemaOf, type JsonSchema } from './json-schema';
import type { OperationSpec, PathTable } from './operation';
import { resourceListItemView, resourceView, resourceWithStatusView } from './views';

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
    get: { summary: 'List resources', auth: 'apiToken', suffixes: '.json', answers: { 200: { description: 'The organization\'s files', json: listJson } } },
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
      auth: 'apiToken',
      suffixes: 'none',
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
};
