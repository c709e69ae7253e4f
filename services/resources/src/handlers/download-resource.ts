import type { CommandHandler } from '@formcast/bus';
import { resourceIdPayload, type ResourceFileView } from '@formcast/contracts';
import { parsePayload, requireOrgId } from '@formcast/platform';
import { resourceNotFound } from '../store/resource-errors';
import type { ResourcesDeps } from './deps';

/** The file as Base64 in the reply (the bus carries JSON); the gateway sends the bytes. */
export const downloadResource =
  ({ store }: ResourcesDeps): CommandHandler =>
  async (command): Promise<ResourceFileView> => {
    const orgId = requireOrgId(command);
    const { resourceId } = parsePayload(resourceIdPayload, command.payload);
    const found = await store.readResourceFile(orgId, resourceId);
    if (!found) throw resourceNotFound(resourceId);
    return {
      file_name: found.resource.originalFilename,
      content_type: found.resource.contentType,
      file_data: found.bytes.toString('base64'),
    };
  };
