import { registerServiceHandlers, type Bus } from '@formcast/bus';
import { openServiceStores, withIdempotencyKeys, type IdempotencyStore } from '@formcast/idempotency';
import { runningService, type ServiceStarter } from '@formcast/platform';
import type { ResourcesDeps } from './handlers/deps';
import { commandHandlers, idempotentCommands } from './handler-table';
import { openResourceStore } from './store/open-resource-store';
import { AsyncUpdateWorker } from './worker/async-update-worker';

export const resourcesServiceName = 'resources';

/** Serves every resources command on the bus from the given store (and Idempotency-Keys from `idempotencyKeys`). */
export function registerResourcesService(bus: Bus, deps: ResourcesDeps, idempotencyKeys?: IdempotencyStore): void {
  registerServiceHandlers(bus, resourcesServiceName, deps, { commands: withIdempotencyKeys(commandHandlers, idempotentCommands, idempotencyKeys) });
}

/** The resources service on its settings' store: what embedded mode and main.ts start. */
export const startResourcesService: ServiceStarter<Bus> = async ({ bus, settings, logger }) => {
  const { store, idempotencyKeys } = await openServiceStores(settings, resourcesServiceName, openResourceStore);
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
