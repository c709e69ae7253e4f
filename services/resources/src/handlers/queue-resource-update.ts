import { randomUUID } from 'node:crypto';
import type { CommandHandler } from '@formcast/bus';
import { queueResourceUpdatePayload, v4ResourceContentTypes, type AsyncResourceUpdateView } from '@formcast/contracts';
import { AppError, parsePayload, requireOrgId } from '@formcast/platform';
import { toAsyncUpdateView } from '../domain/async-update';
import type { ResourcesDeps } from './deps';
import { requireResource } from './require-resource';

const v4Types: ReadonlySet<string> = new Set(v4ResourceContentTypes);

/**
 * v4 create or update (resource_v4.md): what can be told at once is checked now (what is
 * missing, an unknown resource, a MIME type v4 does not take, the size), so a refused request
 * queues nothing; the job, with its file, is kept before the answer, and the file's own
 * checks and the change are done by the worker (`failed` with the reason otherwise).
 */
export const queueResourceUpdate =
  ({ store, fileRules, asyncUpdatesQueued }: ResourcesDeps): CommandHandler =>
  async (command): Promise<AsyncResourceUpdateView> => {
    const orgId = requireOrgId(command);
    const { resourceId, description, file } = parsePayload(queueResourceUpdatePayload, command.payload);
    const bytes = command.attachment;
    if (resourceId === undefined) {
      if (description === undefined) throw new AppError('invalid', 'description: required when creating a resource');
      if (file === undefined) throw new AppError('invalid', 'file: required when creating a resource');
    } else if (description === undefined && file === undefined) {
      throw new AppError('invalid', 'resource: give the description, the file, or both, to change');
    }
    if (file === undefined && bytes !== undefined) throw new AppError('invalid', 'file: the bytes came without the file\'s name and mime_type');
    if (file !== undefined) {
      if (!v4Types.has(file.content_type.toLowerCase())) {
        throw new AppError('unsupported_media_type', `file.mime_type: ${file.content_type} is not taken by v4; one of ${v4ResourceContentTypes.join(', ')}`);
      }
      if (!bytes || bytes.length === 0) throw new AppError('invalid', 'file.file_data: required, the file\'s bytes in Base64');
      if (bytes.length > fileRules.maxFileBytes) {
        throw new AppError('too_large', `file.file_data: the file is ${bytes.length} bytes; the largest accepted is ${fileRules.maxFileBytes} bytes`);
      }
    }
    let versionWhenQueued: number | null = null;
    if (resourceId !== undefined) {
      versionWhenQueued = (await requireResource(store, orgId, resourceId)).version;
    }
    const job = await store.queueUpdate(
      { id: randomUUID(), orgId, resourceId: resourceId ?? null, description: description ?? null, file: file ?? null, versionWhenQueued },
      bytes,
      command.id,
      new Date().toISOString(),
    );
    asyncUpdatesQueued?.();
    return toAsyncUpdateView(job, null);
  };
