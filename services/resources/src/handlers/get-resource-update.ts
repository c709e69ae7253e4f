import type { CommandHandler } from '@formcast/bus';
import { getResourceUpdatePayload, type AsyncResourceUpdateView } from '@formcast/contracts';
import { AppError, parsePayload, requireOrgId } from '@formcast/platform';
import { toAsyncUpdateView } from '../domain/async-update';
import type { ResourcesDeps } from './deps';

/** GET /api/v4/async_resource_updates/<id>: the job, with its resource once completed; another organization's is 404. */
export const getResourceUpdate =
  ({ store }: ResourcesDeps): CommandHandler =>
  async (command): Promise<AsyncResourceUpdateView> => {
    const orgId = requireOrgId(command);
    const { updateId } = parsePayload(getResourceUpdatePayload, command.payload);
    const job = await store.getUpdate(orgId, updateId);
    if (!job) throw new AppError('not_found', `Async resource update ${updateId} does not exist`);
    const resource = job.status === 'completed' && job.resourceId !== null ? await store.getResource(orgId, job.resourceId) : null;
    return toAsyncUpdateView(job, resource);
  };
