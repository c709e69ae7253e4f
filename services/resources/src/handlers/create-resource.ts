import type { CommandHandler } from '@formcast/bus';
import { createResourcePayload, type ResourceView } from '@formcast/contracts';
import { parsePayload, requireOrgId } from '@formcast/platform';
import { checkFile } from '../domain/checked-file';
import { toResourceView } from '../domain/views';
import { requireAnsweredInTime } from './answered-in-time';
import type { ResourcesDeps } from './deps';

/** A new resource at version 0, once its file passed every check; nothing is stored otherwise. */
export const createResource =
  ({ store, fileRules, commandTimeoutMs }: ResourcesDeps): CommandHandler =>
  async (command): Promise<ResourceView> => {
    const orgId = requireOrgId(command);
    const { description, file } = parsePayload(createResourcePayload, command.payload);
    const checked = await checkFile(file, command.attachment, fileRules);
    requireAnsweredInTime(command, commandTimeoutMs);
    return toResourceView(await store.createResource(orgId, { description, file: checked }, command.id));
  };
