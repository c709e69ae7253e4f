import { join } from 'node:path';
import type { Bus, CommandHandler } from '@formcast/bus';
import { resourceCommands as commands } from '@formcast/contracts';
import type { ServiceStarter } from '@formcast/platform';
import type { ResourcesDeps } from './handlers/deps';
import { createResource } from './handlers/create-resource';
import { deleteResource } from './handlers/delete-resource';
import { describeResource } from './handlers/describe-resource';
import { downloadResource } from './handlers/download-resource';
import { listResources } from './handlers/list-resources';
import { updateResource } from './handlers/update-resource';
import { openResourceStore } from './store/open-resource-store';

export const resourcesServiceName = 'resources';

type ResourceCommand = (typeof commands)[keyof typeof commands];

const handlers: Record<ResourceCommand, (deps: ResourcesDeps) => CommandHandler> = {
  [commands.listResources]: listResources,
  [commands.describeResource]: describeResource,
  [commands.downloadResource]: downloadResource,
  [commands.createResource]: createResource,
  [commands.updateResource]: updateResource,
  [commands.deleteResource]: deleteResource,
};

/** Serves every resources command on the bus from the given store. */
export function registerResourcesService(bus: Bus, deps: ResourcesDeps): void {
  for (const [type, makeHandler] of Object.entries(handlers)) {
    bus.handleCommand(resourcesServiceName, type, makeHandler(deps));
  }
}

/** The resources service on its settings' store: what embedded mode and main.ts start. */
export const startResourcesService: ServiceStarter<Bus> = async ({ bus, settings }) => {
  const store = await openResourceStore({
    mongoUrl: settings.MONGO_URL,
    sqliteFile: join(settings.DATA_DIR, 'resources.sqlite'),
  });
  registerResourcesService(bus, { store, fileRules: { maxFileBytes: settings.RESOURCE_MAX_BYTES } });
  return { name: resourcesServiceName, ping: () => store.ping(), stop: () => store.close() };
};
