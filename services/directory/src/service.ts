import { registerServiceHandlers, type Bus } from '@formcast/bus';
import { openServiceStores, withIdempotencyKeys, type IdempotencyStore } from '@formcast/idempotency';
import { runningService, type ServiceStarter } from '@formcast/platform';
import { openDirectoryStore } from './store/open-directory-store';
import type { DirectoryDeps } from './handlers/deps';
import { commandHandlers, idempotentCommands } from './handler-table';

export const directoryServiceName = 'directory';

/** Serves every directory command on the bus from the given store (and Idempotency-Keys from `idempotencyKeys`). */
export function registerDirectoryService(bus: Bus, deps: DirectoryDeps, idempotencyKeys?: IdempotencyStore): void {
  registerServiceHandlers(bus, directoryServiceName, deps, { commands: withIdempotencyKeys(commandHandlers, idempotentCommands, idempotencyKeys) });
}

/** The directory on its settings' store: what embedded mode and main.ts start. */
export const startDirectoryService: ServiceStarter<Bus> = async ({ bus, settings, logger }) => {
  const { store, idempotencyKeys } = await openServiceStores(settings, directoryServiceName, openDirectoryStore);
  registerDirectoryService(bus, { store, formNamespaceBase: settings.FORM_NAMESPACE_BASE, bus, logger }, idempotencyKeys);
  return runningService(directoryServiceName, () => store.ping(), [() => store.close(), () => idempotencyKeys.close()]);
};
