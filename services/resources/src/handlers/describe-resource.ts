import type { CommandHandler } from '@formcast/bus';
import { resourceIdPayload, type ResourceView } from '@formcast/contracts';
import { parsePayload, requireOrgId } from '@formcast/platform';
import { toResourceView } from '../domain/views';
import { resourceNotFound } from '../store/resource-errors';
import type { ResourcesDeps } from './deps';

export const describeResource =
  ({ store }: ResourcesDeps): CommandHandler =>
  async (command): Promise<ResourceView> => {
    const orgId = requireOrgId(command);
    const { resourceId } = parsePayload(resourceIdPayload, command.payload);
    const resource = await store.getResource(orgId, resourceId);
    if (!resource) throw resourceNotFound(resourceId);
    return toResourceView(resource);
  };
