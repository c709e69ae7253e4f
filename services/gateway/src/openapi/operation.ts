import { z } from 'zod';
import { schemaOf, type JsonSchema } from './json-schema';

export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';

/** How a route authenticates: HTTP Basic with an API token, a device's Bearer secret, the admin Bearer token, or not at all. */
export type Auth = 'apiToken' | 'deviceSecret' | 'adminToken' | 'none';

/**
 * The path suffixes a route takes (express `{.:format}`, `{.json}`, `{.xml}`): the document's
 * paths are written without them, and `x-formcast-suffixes` lists them.
 */
export type Suffixes = '.json|.xml' | '.json' | '.xml' | 'none';

/** A body or an answer: JSON (a zod schema or a JSON Schema), XML (what the document holds), or other media. */
export interface Content {
  json?: z.ZodType | JsonSchema;
  /** The XML document, in words: its root element and children (XML shapes are described, not schematised). */
  xml?: string;
  /** Any other media type → its description (a form body, a file's bytes, a plain-text error). */
  other?: Record<string, string>;
}

export interface Answer extends Content {
  description: string;
  headers?: Record<string, string>;
}

export interface OperationSpec {
  summary: string;
  description?: string;
  auth: Auth;
  suffixes: Suffixes;
  query?: Record<string, { schema: JsonSchema; description: string }>;
  body?: Content & { description?: string; optional?: boolean };
  /** Success answers by status. */
  answers: Record<number, Answer>;
  /** Error statuses this route may answer besides 401 (added for every authenticated route), 503 and 504. */
  errors?: number[];
}

export type PathItem = Partial<Record<HttpMethod, OperationSpec>>;
/** OpenAPI paths (`/clients/{deviceRef}/oneshots`) → their operations. */
export type PathTable = Record<string, PathItem>;

/** Path parameters, by name, wherever they appear. */
const pathParameters: Record<string, string> = {
  orgId: 'The organization id (another organization\'s is 404)',
  deviceRef: 'The device: its identifier, or its numeric id',
  deviceId: 'The device id',
  groupId: 'The group id',
  formId: 'The form (template) id',
  oneshotId: 'The oneshot (dispatch) id',
  dispatchId: 'The dispatch (oneshot) id',
  connectionId: 'The connection (destination) id',
  destinationId: 'The destination id',
  deliveryId: 'The delivery id',
  resourceId: 'The resource id',
  updateId: 'The async_resource_update_id (a UUID) a v4 create or update answered',
  submissionId: 'The submission id',
  tokenId: 'The API token id',
  queue: 'The service whose dead letters these are: gateway, push, notifier or delivery',
  eventId: 'The dead-lettered event\'s envelope id',
  imageIdentifier: 'The image\'s identifier, as the submission named it and its upload gave it',
  rest: 'Any path below',
};

const security: Record<Auth, object[]> = {
  apiToken: [{ apiToken: [] }],
  deviceSecret: [{ deviceSecret: [] }],
  adminToken: [{ adminToken: [] }],
  none: [],
};

const errorAnswers: Record<number, string> = {
  304: 'NotModified',
  400: 'BadRequest',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'NotFound',
  409: 'Conflict',
  413: 'TooLarge',
  415: 'UnsupportedMediaType',
  422: 'Unprocessable',
  503: 'Unavailable',
  504: 'Timeout',
};

function jsonSchemaOf(schema: z.ZodType | JsonSchema): JsonSchema {
  return schema instanceof z.ZodType ? schemaOf(schema) : schema;
}

function bodySchemaOf(schema: z.ZodType | JsonSchema): JsonSchema {
  return schema instanceof z.ZodType ? schemaOf(schema, 'input') : schema;
}

function contentOf(content: Content, schemaFor: (s: z.ZodType | JsonSchema) => JsonSchema): Record<string, object> {
  const media: Record<string, object> = {};
  if (content.json) media['application/json'] = { schema: schemaFor(content.json) };
  if (content.xml) media['application/xml'] = { schema: { type: 'string', description: content.xml } };
  for (const [type, description] of Object.entries(content.other ?? {})) media[type] = { schema: { type: 'string', description } };
  return media;
}

function suffixList(suffixes: Suffixes): string[] {
  return suffixes === 'none' ? [] : suffixes.split('|');
}

const suffixWords: Record<Suffixes, string> = {
  '.json|.xml': 'The path takes a `.json` or `.xml` suffix; without one, the format follows Content-Type (writes) or Accept, else the endpoint\'s default.',
  '.json': 'The path takes a `.json` suffix (JSON only).',
  '.xml': 'The path takes an `.xml` suffix (XML only).',
  none: '',
};

/** The OpenAPI Operation Object of a spec at `path`. */
export function operationObject(method: HttpMethod, path: string, spec: OperationSpec): Record<string, unknown> {
  const names = [...path.matchAll(/\{(\w+)\}/g)].map((match) => match[1]!);
  const parameters = [
    ...names.map((name) => {
      const description = pathParameters[name];
      if (!description) throw new Error(`OpenAPI: no description of the path parameter ${name} (${path})`);
      return { name, in: 'path', required: true, description, schema: { type: 'string' } };
    }),
    ...Object.entries(spec.query ?? {}).map(([name, query]) => ({ name, in: 'query', required: false, description: query.description, schema: query.schema })),
  ];
  const responses: Record<string, object> = {};
  for (const [status, answer] of Object.entries(spec.answers)) {
    const content = contentOf(answer, jsonSchemaOf);
    const headers = Object.fromEntries(Object.entries(answer.headers ?? {}).map(([name, description]) => [name, { description, schema: { type: 'string' } }]));
    responses[status] = {
      description: answer.description,
      ...(Object.keys(content).length > 0 ? { content } : {}),
      ...(Object.keys(headers).length > 0 ? { headers } : {}),
    };
  }
  const errors = new Set([...(spec.errors ?? []), ...(spec.auth === 'none' ? [] : [401]), 503, 504]);
  for (const status of [...errors].sort()) responses[String(status)] = { $ref: `#/components/responses/${errorAnswers[status]}` };
  const description = [spec.description ?? '', suffixWords[spec.suffixes]].filter((text) => text !== '').join('\n\n');
  return {
    operationId: `${method}${path.replace(/\{(\w+)\}/g, 'By_$1').replace(/[^A-Za-z0-9]+(\w)?/g, (_m, c: string | undefined) => (c ?? '').toUpperCase())}`,
    summary: spec.summary,
    ...(description ? { description } : {}),
    security: security[spec.auth],
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(spec.body
      ? {
          requestBody: {
            required: !spec.body.optional,
            ...(spec.body.description ? { description: spec.body.description } : {}),
            content: contentOf(spec.body, bodySchemaOf),
          },
        }
      : {}),
    responses,
    'x-formcast-suffixes': suffixList(spec.suffixes),
  };
}

/** The error answers every operation refers to. */
export function errorResponses(): Record<string, object> {
  const jsonError = {
    type: 'object',
    properties: { status: { type: 'string' }, error: { type: 'string' }, message: { type: 'string' } },
    required: ['status', 'error', 'message'],
    additionalProperties: false,
  };
  const xmlError = { type: 'string', description: '`<errors><error>message</error></errors>`' };
  const answer = (description: string) => ({ description, content: { 'application/json': { schema: jsonError }, 'application/xml': { schema: xmlError } } });
  return {
    NotModified: { description: 'Nothing to create: every name exists already (empty body)' },
    BadRequest: {
      description: 'The request is malformed or breaks a rule; nothing is changed',
      content: {
        'text/plain': {
          schema: { type: 'string', description: 'three lines: `response_type: ERROR`, `response_code: bad_request`, `message: <what is wrong, naming the field>`' },
        },
      },
    },
    Unauthorized: answer('Missing or wrong credentials (`WWW-Authenticate` names the scheme)'),
    Forbidden: answer('Authenticated, but not allowed (a pending device; a form outside the device\'s groups; a wrong enrollment code)'),
    NotFound: answer('No such endpoint, an unknown id, or another organization\'s'),
    Conflict: answer('The state forbids it (a oneshot that has ended; a duplicate name)'),
    TooLarge: answer('The body (decompressed) or file is over its limit'),
    UnsupportedMediaType: answer('A content type or content encoding that is not accepted'),
    Unprocessable: answer('Well-formed, but the content is wrong for its type (a file that is not what its type says)'),
    Unavailable: answer('A service the request needs is down'),
    Timeout: answer('A service the request needs did not answer in time'),
  };
}
