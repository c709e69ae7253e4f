import { Router, type Handler, type Request } from 'express';
import {
  base64DecodedLength,
  isBase64,
  resourceCommands,
  type ResourceFilePayload,
  type ResourceFileView,
  type ResourceListItemView,
  type ResourceView,
} from '@formcast/contracts';
import { AppError } from '@formcast/platform';
import { readLimitedBody } from '../http/limited-body';
import { pathId } from '../http/path-params';
import { readBody } from '../http/request-body';
import { sendResourceFile } from '../render/resources-file';
import type { RouteDeps } from './route-deps';

export interface ResourceRouteDeps extends RouteDeps {
  /** Organization API token authentication (`requireApiToken`). */
  authenticate: Handler;
  /** RESOURCE_MAX_BYTES: the largest file, once decoded. */
  maxFileBytes: number;
}

/**
 * The largest request body worth reading for a file of `maxFileBytes`: its Base64 (4/3 of
 * it), room for that to triple when every character is percent-encoded in a form body (or
 * escaped or broken into lines in JSON), and 64 KiB for the other fields. The exact rule,
 * on the decoded size, is applied once the body is parsed.
 */
export function resourceBodyLimit(maxFileBytes: number): number {
  return 3 * 4 * Math.ceil(maxFileBytes / 3) + 64 * 1024;
}

type FileInput = { file_name?: unknown; file_data?: unknown; content_type?: unknown };
type BodyKind = 'json' | 'form';

/** `{"resource": {...}}` from JSON, or `resource[...]=...` from a form-encoded body. */
function resourceFromBody(req: Request): { fields: Record<string, unknown>; kind: BodyKind } {
  let body;
  try {
    body = readBody(req);
  } catch (error) {
    if (error instanceof AppError && error.code === 'unsupported_media_type') {
      throw new AppError(
        'unsupported_media_type',
        'Send the resource as application/json ({"resource": {...}}) or application/x-www-form-urlencoded (resource[file][file_data]=...)',
      );
    }
    throw error;
  }
  if (body.kind !== 'json' && body.kind !== 'form') {
    if (body.kind === 'xml') {
      throw new AppError('unsupported_media_type', 'Resources take application/json or application/x-www-form-urlencoded, not XML');
    }
    throw new AppError('invalid', 'resource: required, e.g. {"resource": {"description": "…", "file": {"file_name", "file_data", "content_type"}}}');
  }
  const resource = (body.value as { resource?: unknown } | null)?.resource;
  if (!isObject(resource)) {
    throw new AppError('invalid', 'resource: required, e.g. {"resource": {"description": "…", "file": {"file_name", "file_data", "content_type"}}}');
  }
  return { fields: resource, kind: body.kind };
}

/**
 * `content_type` as a string. A Python client passes `mimetypes.guess_type()` through, so
 * `["text/plain", null]` counts as `"text/plain"`; a second element that is not null is an
 * encoding (`gzip`), and compressed files are not accepted.
 */
function contentTypeText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (Array.isArray(value) && value.length >= 1 && value.length <= 2) {
    const [type, encoding] = value as unknown[];
    if (encoding !== undefined && encoding !== null && encoding !== '') {
      throw new AppError('unsupported_media_type', `file.content_type: compressed files (${String(encoding)}) are not accepted`);
    }
    if (typeof type === 'string') return type;
  }
  throw new AppError('invalid', 'file.content_type: required, the file\'s MIME type as a string (or ["<mime>", null])');
}

/**
 * The file's Base64 as sent, line breaks removed. In a form body a `+` not percent-encoded
 * arrives as a space, which Base64 never holds: it is turned back. Checked here, before it
 * crosses the bus: 400 when it is not Base64, 413 when it decodes to more than the limit.
 */
function fileDataText(value: unknown, kind: BodyKind, maxFileBytes: number): string {
  if (typeof value !== 'string') throw new AppError('invalid', 'file.file_data: required, the file\'s bytes in Base64');
  const spaced = kind === 'form' ? value.replace(/ /g, '+') : value;
  const base64 = /[\s]/.test(spaced) ? spaced.replace(/[\r\n\t ]/g, '') : spaced;
  if (!isBase64(base64)) {
    throw new AppError('invalid', 'file.file_data: not valid Base64 (A-Z, a-z, 0-9, +, / and = padding)');
  }
  const size = base64DecodedLength(base64);
  if (size > maxFileBytes) {
    throw new AppError('too_large', `file.file_data: the file is ${size} bytes; the largest accepted is ${maxFileBytes} bytes`);
  }
  return base64;
}

function filePayload(value: unknown, kind: BodyKind, maxFileBytes: number): ResourceFilePayload {
  if (!isObject(value)) {
    throw new AppError('invalid', 'file: must be an object {"file_name", "file_data", "content_type"}');
  }
  const file = value as FileInput;
  if (typeof file.file_name !== 'string' || file.file_name === '') {
    throw new AppError('invalid', 'file.file_name: required, the file\'s name');
  }
  return {
    file_name: file.file_name,
    content_type: contentTypeText(file.content_type),
    file_data: fileDataText(file.file_data, kind, maxFileBytes),
  };
}

function descriptionText(value: unknown): string {
  if (typeof value !== 'string') throw new AppError('invalid', 'description: must be a string');
  return value;
}

/** Resources API, spec 4.1. Mounted under /api, before the global body parser. */
export function resourceRoutes({ send, authenticate, maxFileBytes }: ResourceRouteDeps): Router {
  const router = Router();
  const readBodyUpToLimit = readLimitedBody(
    resourceBodyLimit(maxFileBytes),
    () => `a resource file may be at most ${maxFileBytes} bytes`,
  );
  // Authenticated before a large body is read; read with the resources' own limit.
  router.all(['/resources{.:format}', '/resources/*rest'], authenticate, readBodyUpToLimit);

  router.get('/resources{.json}', async (req, res) => {
    res.json({ resources: await send<ResourceListItemView[]>(req, resourceCommands.listResources, {}) });
  });

  router.post('/resources{.json}', async (req, res) => {
    const { fields, kind } = resourceFromBody(req);
    if (fields['description'] === undefined) throw new AppError('invalid', 'description: required when creating a resource');
    if (fields['file'] === undefined) throw new AppError('invalid', 'file: required when creating a resource');
    const payload = {
      description: descriptionText(fields['description']),
      file: filePayload(fields['file'], kind, maxFileBytes),
    };
    const resource = await send<ResourceView>(req, resourceCommands.createResource, payload);
    res.status(201).json({ resource });
  });

  router.get('/resources/:resourceId/describe{.json}', async (req, res) => {
    const resourceId = pathId(req.params['resourceId'], 'Resource');
    res.json({ resource: await send<ResourceView>(req, resourceCommands.describeResource, { resourceId }) });
  });

  router.get('/resources/:resourceId', async (req, res) => {
    const resourceId = pathId(req.params['resourceId'], 'Resource');
    sendResourceFile(res, await send<ResourceFileView>(req, resourceCommands.downloadResource, { resourceId }));
  });

  router.put('/resources/:resourceId{.json}', async (req, res) => {
    const resourceId = pathId(req.params['resourceId'], 'Resource');
    const { fields, kind } = resourceFromBody(req);
    const payload: { resourceId: number; description?: string; file?: ResourceFilePayload } = { resourceId };
    if (fields['description'] !== undefined) payload.description = descriptionText(fields['description']);
    if (fields['file'] !== undefined) payload.file = filePayload(fields['file'], kind, maxFileBytes);
    res.json({ resource: await send<ResourceView>(req, resourceCommands.updateResource, payload) });
  });

  router.delete('/resources/:resourceId{.json}', async (req, res) => {
    const resourceId = pathId(req.params['resourceId'], 'Resource');
    await send(req, resourceCommands.deleteResource, { resourceId });
    res.status(200).end();
  });

  return router;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
