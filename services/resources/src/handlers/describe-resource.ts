import type { CommandHandler } from '@formcast/bus';
import { resourceIdPayload, type ResourceView } from '@formcast/contracts';
import { parsePayload, requireOrgId } from '@formcast/platform';
import { toResourceView } from '../domain/views';
import type { ResourcesDeps } from './deps';
import { requireResource } from './require-resource';

export const describeResource =
  ({ store }: ResourcesDeps): CommandHandler =>
  async (command): Promise<ResourceView> => {
    const { resourceId } = parsePayload(resourceIdPayload, command.payload);
    return toResourceView(await requireResource(store, requireOrgId(command), resourceId));
  };
