import type { CommandHandler } from '@formcast/bus';
import { resourceIdPayload } from '@formcast/contracts';
import { parsePayload, requireOrgId } from '@formcast/platform';
import type { ResourcesDeps } from './deps';

export const deleteResource =
  ({ store }: ResourcesDeps): CommandHandler =>
  async (command) => {
    const orgId = requireOrgId(command);
    const { resourceId } = parsePayload(resourceIdPayload, command.payload);
    await store.deleteResource(orgId, resourceId);
    return null;
  };
