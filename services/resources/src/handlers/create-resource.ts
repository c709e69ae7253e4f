import type { CommandHandler } from '@formcast/bus';
import { createResourcePayload, type ResourceView } from '@formcast/contracts';
import { parsePayload, requireOrgId } from '@formcast/platform';
import { checkFile } from '../domain/checked-file';
import { toResourceView } from '../domain/views';
import type { ResourcesDeps } from './deps';

/** A new resource at version 0, once its file passed every check; nothing is stored otherwise. */
export const createResource =
  ({ store, fileRules }: ResourcesDeps): CommandHandler =>
  async (command): Promise<ResourceView> => {
    const orgId = requireOrgId(command);
    const { description, file } = parsePayload(createResourcePayload, command.payload);
    const checked = await checkFile(file, command.attachment, fileRules);
    return toResourceView(await store.createResource(orgId, { description, file: checked }, command.id));
  };
