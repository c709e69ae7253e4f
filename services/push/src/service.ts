import { join } from 'node:path';
import type { Bus, CommandHandler, EventHandler } from '@formcast/bus';
import { directoryEvents, pushCommands as commands } from '@formcast/contracts';
import type { ServiceStarter } from '@formcast/platform';
import { DirectoryLookup } from './directory-cache/directory-lookup';
import { createOneshot } from './handlers/create-oneshot';
import type { PushDeps } from './handlers/deps';
import { deviceGetOneshot } from './handlers/device-get-oneshot';
import { deviceListOneshots } from './handlers/device-list-oneshots';
import { deviceSubmitOneshot } from './handlers/device-submit-oneshot';
import { deviceChanged, formChanged } from './handlers/directory-changed';
import { listDeviceOneshots } from './handlers/list-device-oneshots';
import { listOrganizationOneshots } from './handlers/list-organization-oneshots';
import { revokeAllOneshots } from './handlers/revoke-all-oneshots';
import { revokeOneshot } from './handlers/revoke-oneshot';
import { updateOneshot } from './handlers/update-oneshot';
import { OutboxRelay } from './outbox/outbox-relay';
import { openPushStore } from './store/open-push-store';

export const pushServiceName = 'push';

type PushCommand = (typeof commands)[keyof typeof commands];

const commandHandlers: Record<PushCommand, (deps: PushDeps) => CommandHandler> = {
  [commands.createOneshot]: createOneshot,
  [commands.updateOneshot]: updateOneshot,
  [commands.listDeviceOneshots]: listDeviceOneshots,
  [commands.listOrganizationOneshots]: listOrganizationOneshots,
  [commands.revokeOneshot]: revokeOneshot,
  [commands.revokeAllOneshots]: revokeAllOneshots,
  [commands.deviceListOneshots]: deviceListOneshots,
  [commands.deviceGetOneshot]: deviceGetOneshot,
  [commands.deviceSubmitOneshot]: deviceSubmitOneshot,
};

const eventHandlers: Record<string, (deps: PushDeps) => EventHandler> = {
  [directoryEvents.deviceChanged]: deviceChanged,
  [directoryEvents.formChanged]: formChanged,
};

export function registerPushService(bus: Bus, deps: PushDeps): void {
  for (const [type, make] of Object.entries(commandHandlers)) bus.handleCommand(pushServiceName, type, make(deps));
  for (const [type, make] of Object.entries(eventHandlers)) bus.subscribe(pushServiceName, type, make(deps));
}

/** How long a cached device or template may be used without the directory's word. */
const directoryCacheTtlMs = 10_000;

/** The push service on its settings' store, with its outbox relay: what embedded mode and main.ts start. */
export const startPushService: ServiceStarter<Bus> = async ({ bus, settings, logger }) => {
  const store = await openPushStore({ mongoUrl: settings.MONGO_URL, sqliteFile: join(settings.DATA_DIR, 'push.sqlite') });
  const relay = new OutboxRelay(store, bus, logger.child({ component: 'push-outbox' }));
  const directory = new DirectoryLookup(bus, { ttlMs: directoryCacheTtlMs, timeoutMs: settings.COMMAND_TIMEOUT_MS });
  registerPushService(bus, { store, directory, eventsWritten: () => relay.wake() });
  relay.start();
  return {
    name: pushServiceName,
    ping: () => store.ping(),
    stop: async () => {
      await relay.stop();
      await store.close();
    },
  };
};
