import { z } from 'zod';

/** Commands served by the resources service (routing key = the name). */
export const resourceCommands = {
  listResources: 'resources.resource.list',
  describeResource: 'resources.resource.describe',
  downloadResource: 'resources.resource.download',
  createResource: 'resources.resource.create',
  updateResource: 'resources.resource.update',
  deleteResource: 'resources.resource.delete',
  /** v4 (resource_v4.md): a create or update queued, done in the background; answers the job. */
  queueResourceUpdate: 'resources.async_update.queue',
  /** v4: a queued create or update, as its poll shows it. */
  getResourceUpdate: 'resources.async_update.get',
} as const;

/** The file types of spec section 8. */
export const specResourceContentTypes = [
  'image/png',
  'image/jpeg',
  'application/xml',
  'text/xml',
  'text/plain',
  'application/json',
  'application/pdf',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
] as const;

/** The map overlay's own type in the real product's newer docs; `application/json` works too. */
export const mapOverlayContentType = 'application/vnd.device-magic.map-overlay.json';

/** Every `file.content_type` a resource may have. */
export const resourceContentTypes = [...specResourceContentTypes, mapOverlayContentType] as const;

export type ResourceContentType = (typeof resourceContentTypes)[number];

// ---- Base64 ------------------------------------------------------------------------------

const base64Alphabet = /^[A-Za-z0-9+/]*={0,2}$/;

/**
 * Whether `text` is standard Base64 (RFC 4648 section 4, no whitespace): the alphabet, then
 * at most two `=`, which only complete a last group of four. Unpadded text is accepted, as
 * decoders do, but never a length that leaves a single character over.
 */
export function isBase64(text: string): boolean {
  if (text.length % 4 === 1 || !base64Alphabet.test(text)) return false;
  return !text.endsWith('=') || text.length % 4 === 0;
}

/** The number of bytes Base64 text decodes to, without decoding it (for size limits). */
export function base64DecodedLength(text: string): number {
  let padding = 0;
  if (text.endsWith('==')) padding = 2;
  else if (text.endsWith('=')) padding = 1;
  const unpadded = text.length - padding;
  return Math.floor((unpadded * 3) / 4);
}

// ---- payloads ----------------------------------------------------------------------------

const id = z.number().int().positive();
const description = z.string().max(10000);

/**
 * A file as it crosses the bus: its name and type here, its bytes as the command's
 * attachment (Envelope.attachment), decoded from the API's Base64 by the gateway, which
 * also turns the `["<mime>", null]` form of `content_type` into the string. The resources
 * service checks the type against the allowed list, the size and the bytes themselves.
 */
export const resourceFilePayload = z.object({
  file_name: z.string().min(1, 'must not be empty').max(255),
  content_type: z.string().min(1, 'must not be empty').max(255),
});

/** The file's bytes are the command's attachment. */
export const createResourcePayload = z.object({
  description,
  file: resourceFilePayload,
});

/** Only what is given changes; a new file (bytes as the attachment) bumps the version. */
export const updateResourcePayload = z.object({
  resourceId: id,
  description: description.optional(),
  file: resourceFilePayload.optional(),
});

export const resourceIdPayload = z.object({ resourceId: id });

export type ResourceFilePayload = z.infer<typeof resourceFilePayload>;

/** resource_v4.md's supported MIME types: no map overlays yet (resource_v4_migration.md). */
export const v4ResourceContentTypes = [
  'image/png',
  'image/jpeg',
  'application/xml',
  'text/xml',
  'text/plain',
  'application/pdf',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
] as const;

/**
 * v4 create (no `resourceId`) or update, queued: the file's bytes are the attachment. A create
 * needs both; an update what it changes. The job does the first generation's create or update.
 */
export const queueResourceUpdatePayload = z.object({
  resourceId: id.optional(),
  description: description.optional(),
  file: resourceFilePayload.optional(),
});

export const getResourceUpdatePayload = z.object({ updateId: z.uuid({ error: 'must be the async_resource_update_id (a UUID)' }) });

export type AsyncResourceUpdateStatus = 'queued' | 'processing' | 'completed' | 'failed';

/** resource_v4.md's job: what create and update answer (202) and the poll shows. */
export interface AsyncResourceUpdateView {
  async_resource_update_id: string;
  status: AsyncResourceUpdateStatus;
  /** The resource's version when the job was queued; null for a create. */
  resource_version_when_queued: number | null;
  /** Once completed. */
  resource_version_when_completed?: number;
  /** Once completed: the resource as it is then. */
  resource?: ResourceListItemView & { identifier: string };
  /** Once failed: why. */
  error?: string;
  /** Until completed or failed: where to ask. */
  poll_url?: string;
  created_at: string;
  updated_at: string;
}

// ---- views: the API's JSON shapes --------------------------------------------------------

/** A resource in the listing (spec 2.1). */
export interface ResourceListItemView {
  id: number;
  original_filename: string;
  version: number;
  description: string;
}

export interface ResourceColumnView {
  column_name: string;
  /** The column's position in the sheet, counting from 1 (A = 1). */
  column_number: number;
  column_id: string;
}

/** One sheet of a spreadsheet (spec 2.2, with `original_sheet_name` as observed). */
export interface ResourceTableView {
  table_name: string;
  original_sheet_name: string;
  table_id: string;
  columns: ResourceColumnView[];
}

/** A described resource (spec 2.2), wrapped as `{"resource": …}` by the gateway. */
export interface ResourceView {
  id: number;
  identifier: string;
  original_filename: string;
  version: number;
  description: string;
  generated_content_summary: ResourceTableView[];
}

/** A resource's file for download; its bytes are the reply's attachment, which the gateway sends as they are. */
export interface ResourceFileView {
  file_name: string;
  content_type: string;
}
