import { handlersByName, registerServiceHandlers, type Bus } from '@formcast/bus';
import { resourceCommands as commands } from '@formcast/contracts';
import { openIdempotencyStore, withIdempotencyKeys, type IdempotencyStore } from '@formcast/idempotency';
import { runningService, type ServiceStarter } from '@formcast/platform';
import { storeSettingsOf } from '@formcast/storage';
import type { ResourcesDeps } from './handlers/deps';
import { createResource } from './handlers/create-resource';
import { deleteResource } from './handlers/delete-resource';
import { describeResource } from './handlers/describe-resource';
import { downloadResource } from './handlers/download-resource';
import { getResourceUpdate } from './handlers/get-resource-update';
import { listResources } from './handlers/list-resources';
import { queueResourceUpdate } from './handlers/queue-resource-update';
import { updateResource } from './handlers/update-resource';
import { openResourceStore } from './store/open-resource-store';
import { AsyncUpdateWorker } from './worker/async-update-worker';

export const resourcesServiceName = 'resources';

const handlers = handlersByName<typeof commands, ResourcesDeps>(commands, {
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
const idempotentCommands = [commands.createResource, commands.queueResourceUpdate];

/** Serves every resources command on the bus from the given store (and Idempotency-Keys from `idempotencyKeys`). */
export function registerResourcesService(bus: Bus, deps: ResourcesDeps, idempotencyKeys?: IdempotencyStore): void {
  registerServiceHandlers(bus, resourcesServiceName, deps, { commands: withIdempotencyKeys(handlers, idempotentCommands, idempotencyKeys) });
}

/** The resources service on its settings' store: what embedded mode and main.ts start. */
export const startResourcesService: ServiceStarter<Bus> = async ({ bus, settings, logger }) => {
  const store = await openResourceStore(storeSettingsOf(settings, 'resources'));
  const idempotencyKeys = await openIdempotencyStore({ ...storeSettingsOf(settings, 'resources-idempotency'), mongoDbName: 'resources' });
  const fileRules = {
    maxFileBytes: settings.RESOURCE_MAX_BYTES,
    summaryBudget: { maxBytes: settings.RESOURCE_SUMMARY_MAX_BYTES, maxCpuMs: settings.RESOURCE_SUMMARY_MAX_CPU_MS },
  };
  // v4's queued creates and updates: done here, beside the store that keeps them.
  const worker = new AsyncUpdateWorker(store, fileRules, { logger });
  registerResourcesService(bus, { store, fileRules, commandTimeoutMs: settings.COMMAND_TIMEOUT_MS, asyncUpdatesQueued: () => worker.wake() }, idempotencyKeys);
  worker.start();
  return runningService(resourcesServiceName, () => store.ping(), [() => worker.stop(), () => store.close(), () => idempotencyKeys.close()]);
};
