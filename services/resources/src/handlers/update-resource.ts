import type { CommandHandler } from '@formcast/bus';
import { updateResourcePayload, type ResourceView } from '@formcast/contracts';
import { AppError, parsePayload, requireOrgId } from '@formcast/platform';
import { checkFile } from '../domain/checked-file';
import { toResourceView } from '../domain/views';
import type { ResourcePatch } from '../store/resource-store';
import { requireAnsweredInTime } from './answered-in-time';
import type { ResourcesDeps } from './deps';
import { requireResource } from './require-resource';

/** Changes only what is given; a new file bumps the version and regenerates the summary. */
export const updateResource =
  ({ store, fileRules, commandTimeoutMs }: ResourcesDeps): CommandHandler =>
  async (command): Promise<ResourceView> => {
    const orgId = requireOrgId(command);
    const { resourceId, description, file } = parsePayload(updateResourcePayload, command.payload);
    if (file === undefined && command.attachment !== undefined) {
      throw new AppError('invalid', 'file: the bytes came without the file\'s name and content_type');
    }
    if (description === undefined && file === undefined) {
      throw new AppError('invalid', 'resource: give the description, the file, or both, to change');
    }
    // An unknown id answers 404 before a large file is checked for nothing.
    await requireResource(store, orgId, resourceId);
    const patch: ResourcePatch = {};
    if (description !== undefined) patch.description = description;
    if (file !== undefined) patch.file = await checkFile(file, command.attachment, fileRules);
    requireAnsweredInTime(command, commandTimeoutMs);
    return toResourceView(await store.updateResource(orgId, resourceId, patch, command.id));
  };
