import { handlersByName } from '@formcast/bus';
import { resourceCommands as commands } from '@formcast/contracts';
import type { ResourcesDeps } from './handlers/deps';
import { createResource } from './handlers/create-resource';
import { deleteResource } from './handlers/delete-resource';
import { describeResource } from './handlers/describe-resource';
import { downloadResource } from './handlers/download-resource';
import { getResourceUpdate } from './handlers/get-resource-update';
import { listResources } from './handlers/list-resources';
import { queueResourceUpdate } from './handlers/queue-resource-update';
import { updateResource } from './handlers/update-resource';

/** The handler of each of the resources service's commands. */
export const commandHandlers = handlersByName<typeof commands, ResourcesDeps>(commands, {
  listResources,
  describeResource,
  downloadResource,
  createResource,
  updateResource,
  deleteResource,
  queueResourceUpdate,
  getResourceUpdate,
});

/** The creates that answer once per Idempotency-Key. */
export const idempotentCommands = [commands.createResource, commands.queueResourceUpdate];
