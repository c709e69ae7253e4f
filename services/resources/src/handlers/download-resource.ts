import { withAttachment, type CommandHandler, type ValueWithAttachment } from '@formcast/bus';
import { resourceIdPayload, type ResourceFileView } from '@formcast/contracts';
import { parsePayload, requireOrgId } from '@formcast/platform';
import { resourceNotFound } from '../store/resource-errors';
import type { ResourcesDeps } from './deps';

/** The file's name and type, its bytes as the reply's attachment (never Base64 in JSON); the gateway sends them. */
export const downloadResource =
  ({ store }: ResourcesDeps): CommandHandler =>
  async (command): Promise<ValueWithAttachment<ResourceFileView>> => {
    const orgId = requireOrgId(command);
    const { resourceId } = parsePayload(resourceIdPayload, command.payload);
    const found = await store.readResourceFile(orgId, resourceId);
    if (!found) throw resourceNotFound(resourceId);
    return withAttachment({ file_name: found.resource.originalFilename, content_type: found.resource.contentType }, found.bytes);
  };
