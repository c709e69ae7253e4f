import type { Handler, Request, RequestHandler, Response } from 'express';
import {
  resourceCommands,
  type ResourceFilePayload,
  type ResourceFileView,
  type ResourceListItemView,
  type ResourceView,
} from '@formcast/contracts';
import { AppError } from '@formcast/platform';
import { isPlainObject } from '../http/json-object';
import { readLimitedBody } from '../http/limited-body';
import type { FetchWithAttachment, SendCommand } from '../http/send-command';
import { pathId } from '../http/path-params';
import { Base64Decoder } from '../http/resource-upload/base64-decoder';
import { otherFieldsLimit } from '../http/resource-upload/field-budget';
import { readResourceUpload, type ResourceUpload } from '../http/resource-upload/read-resource-upload';
import { responseFormat } from '../http/response-format';
import { sendResourceFile } from '../render/resources-file';
import { renderResourcesXml } from '../render/resources-xml';

/**
 * The largest request body worth reading for a file of `maxFileBytes`: its Base64 (4/3 of
 * it), room for that to triple when every character is percent-encoded in a form body (or
 * escaped or broken into lines in JSON), and 64 KiB for the other fields. The exact rule,
 * on the decoded size, is applied as the file is decoded.
 */
export function resourceBodyLimit(maxFileBytes: number): number {
  return 3 * 4 * Math.ceil(maxFileBytes / 3) + otherFieldsLimit;
}

type FileInput = { file_name?: unknown; file_data?: unknown; content_type?: unknown; mime_type?: unknown };

/** Which key of the file object names its type: `content_type` (first generation, v3) or `mime_type` (v4). */
export type FileTypeKey = 'content_type' | 'mime_type';

/** `{"resource": {...}}` from JSON, or `resource[...]=...` from a form-encoded body. */
function resourceFromBody(body: ResourceUpload): Record<string, unknown> {
  const resource = body.kind === 'empty' ? undefined : (body.value as { resource?: unknown } | null)?.resource;
  if (!isPlainObject(resource)) {
    throw new AppError('invalid', 'resource: required, e.g. {"resource": {"description": "…", "file": {"file_name", "file_data", "content_type"}}}');
  }
  return resource;
}

/**
 * `content_type` as a string. A Python client passes `mimetypes.guess_type()` through, so
 * `["text/plain", null]` counts as `"text/plain"`; a second element that is not null is an
 * encoding (`gzip`), and compressed files are not accepted.
 */
function contentTypeText(value: unknown, key: FileTypeKey = 'content_type'): string {
  if (typeof value === 'string') return value;
  if (Array.isArray(value) && value.length >= 1 && value.length <= 2) {
    const [type, encoding] = value as unknown[];
    if (encoding !== undefined && encoding !== null && encoding !== '') {
      throw new AppError('unsupported_media_type', `file.${key}: compressed files (${String(encoding)}) are not accepted`);
    }
    if (typeof type === 'string') return type;
  }
  throw new AppError('invalid', `file.${key}: required, the file's MIME type as a string (or ["<mime>", null])`);
}

/**
 * The file's bytes, decoded from its Base64 while the body was read (line breaks removed; in
 * a form body a `+` not percent-encoded arrived as a space and was read as `+`). Checked
 * here, before they cross the bus: 400 when the text was not Base64, 413 when it decodes to
 * more than the limit.
 */
function fileBytes(value: unknown, maxFileBytes: number): Buffer {
  if (!(value instanceof Base64Decoder)) throw new AppError('invalid', 'file.file_data: required, the file\'s bytes in Base64');
  if (!value.valid) {
    throw new AppError('invalid', 'file.file_data: not valid Base64 (A-Z, a-z, 0-9, +, / and = padding)');
  }
  if (value.size > maxFileBytes) {
    throw new AppError('too_large', `file.file_data: the file is ${value.size} bytes; the largest accepted is ${maxFileBytes} bytes`);
  }
  return value.bytes();
}

interface FileUpload {
  payload: ResourceFilePayload;
  bytes: Buffer;
}

function fileUpload(value: unknown, maxFileBytes: number, typeKey: FileTypeKey = 'content_type'): FileUpload {
  if (!isPlainObject(value)) {
    throw new AppError('invalid', `file: must be an object {"file_name", "file_data", "${typeKey}"}`);
  }
  const file = value as FileInput;
  if (typeof file.file_name !== 'string' || file.file_name === '') {
    throw new AppError('invalid', 'file.file_name: required, the file\'s name');
  }
  const payload = { file_name: file.file_name, content_type: contentTypeText(file[typeKey], typeKey) };
  return { payload, bytes: fileBytes(file.file_data, maxFileBytes) };
}

function descriptionText(value: unknown): string {
  if (typeof value !== 'string') throw new AppError('invalid', 'description: must be a string');
  return value;
}

export interface ResourceWriteDeps {
  send: SendCommand;
  /** RESOURCE_MAX_BYTES: the largest file, once decoded. */
  maxFileBytes: number;
  /** The file object's type key (default `content_type`; v4 `mime_type`). */
  typeKey?: FileTypeKey;
}

/** A create's or update's fields, read and checked from the body: the payload and the file's bytes. */
export interface ResourceWriteInput {
  payload: { resourceId?: number; description?: string; file?: ResourceFilePayload };
  bytes: Buffer | undefined;
}

/**
 * Create and update as commands, from a streamed body (JSON or form): what every generation's
 * create and update paths share; each answers in its own way.
 */
export function resourceWrites({ send, maxFileBytes, typeKey = 'content_type' }: ResourceWriteDeps) {
  const bodyLimitBytes = resourceBodyLimit(maxFileBytes);
  const readUpload = (req: Request) => readResourceUpload(req, { bodyLimitBytes, maxFileBytes });
  const inputs = {
    /** A create's body: the description and the file are required. */
    async createInput(req: Request): Promise<ResourceWriteInput> {
      const fields = resourceFromBody(await readUpload(req));
      if (fields['description'] === undefined) throw new AppError('invalid', 'description: required when creating a resource');
      if (fields['file'] === undefined) throw new AppError('invalid', 'file: required when creating a resource');
      const description = descriptionText(fields['description']);
      const file = fileUpload(fields['file'], maxFileBytes, typeKey);
      return { payload: { description, file: file.payload }, bytes: file.bytes };
    },
    /** An update's body: only what is given; the path's resource id. */
    async updateInput(req: Request): Promise<ResourceWriteInput> {
      const resourceId = pathId(req.params['resourceId'], 'Resource');
      const fields = resourceFromBody(await readUpload(req));
      const payload: ResourceWriteInput['payload'] = { resourceId };
      if (fields['description'] !== undefined) payload.description = descriptionText(fields['description']);
      let bytes: Buffer | undefined;
      if (fields['file'] !== undefined) {
        const file = fileUpload(fields['file'], maxFileBytes, typeKey);
        payload.file = file.payload;
        bytes = file.bytes;
      }
      return { payload, bytes };
    },
  };
  return {
    ...inputs,
    async create(req: Request): Promise<ResourceView> {
      const { payload, bytes } = await inputs.createInput(req);
      return send<ResourceView>(req, resourceCommands.createResource, payload, bytes);
    },
    async update(req: Request): Promise<ResourceView> {
      const { payload, bytes } = await inputs.updateInput(req);
      return send<ResourceView>(req, resourceCommands.updateResource, payload, bytes);
    },
  };
}

/** Any other body on a resources path, read whole up to the resources' own limit (the global parser's is smaller). */
export function readResourceBody(maxFileBytes: number): Handler {
  return readLimitedBody(resourceBodyLimit(maxFileBytes), () => `a resource file may be at most ${maxFileBytes} bytes`);
}

/*
 * Resources API, spec 4.1 (route-table/resources.ts mounts them under /api, before the
 * global body parser). Create and update stream their bodies (authenticated first).
 */

export const createResource = (send: SendCommand, maxFileBytes: number): RequestHandler => async (req, res) => {
  res.status(201).json({ resource: await resourceWrites({ send, maxFileBytes }).create(req) });
};

export const updateResource = (send: SendCommand, maxFileBytes: number): RequestHandler => async (req, res) => {
  res.json({ resource: await resourceWrites({ send, maxFileBytes }).update(req) });
};

/** JSON by default; `.xml` as v1/resource.md shows it (`<resources><resource>…`). */
export const listResources = (send: SendCommand): RequestHandler => async (req, res) => {
  const format = responseFormat(req, 'json');
  const resources = await send<ResourceListItemView[]>(req, resourceCommands.listResources, {});
  if (format === 'xml') res.type('application/xml').send(renderResourcesXml(resources));
  else res.json({ resources });
};

export const describeResource = (send: SendCommand): RequestHandler => async (req, res) => {
  const resourceId = pathId(req.params['resourceId'], 'Resource');
  res.json({ resource: await send<ResourceView>(req, resourceCommands.describeResource, { resourceId }) });
};

/** The bytes, with or without `.json` (pydevice 0.3.3 downloads `/api/resources/<id>.json`). */
export const downloadResource = (fetchWithAttachment: FetchWithAttachment): RequestHandler => async (req, res) => {
  const resourceId = pathId(req.params['resourceId'], 'Resource');
  const { value, attachment } = await fetchWithAttachment<ResourceFileView>(req, resourceCommands.downloadResource, { resourceId });
  if (!attachment) throw new AppError('internal', 'The resources service answered a download without the file');
  sendResourceFile(res, value, attachment);
};

export const deleteResource = (send: SendCommand): RequestHandler => async (req, res) => {
  const resourceId = pathId(req.params['resourceId'], 'Resource');
  await send(req, resourceCommands.deleteResource, { resourceId });
  res.status(200).end();
};
