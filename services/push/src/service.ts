import { registerServiceHandlers, type Bus } from '@formcast/bus';
import { runningService, type ServiceStarter } from '@formcast/platform';
import { storeSettingsOf } from '@formcast/storage';
import { DirectoryLookup } from './directory-cache/directory-lookup';
import type { PushDeps } from './handlers/deps';
import { commandHandlers, eventHandlers } from './handler-table';
import { OutboxRelay } from './outbox/outbox-relay';
import { DispatchRelease } from './release/dispatch-release';
import { openPushStore } from './store/open-push-store';
import { DeletionsSweep } from './sweeps/deletions-sweep';

export const pushServiceName = 'push';

export function registerPushService(bus: Bus, deps: PushDeps): void {
  registerServiceHandlers(bus, pushServiceName, deps, { commands: commandHandlers, events: eventHandlers });
}

/** How long a cached device or template may be used without the directory's word. */
const directoryCacheTtlMs = 10_000;

/**
 * The push service on its settings' store, with its outbox relay, the release of scheduled
 * dispatches and the sweep for oneshots of deleted devices and forms. `clock`: the time for
 * what compares with scheduled times (tests give their own); the system clock unless given.
 */
export function pushServiceStarter(options: { clock?: () => Date } = {}): ServiceStarter<Bus> {
  return async ({ bus, settings, logger }) => {
    const store = await openPushStore(storeSettingsOf(settings, pushServiceName));
    const relay = new OutboxRelay(store, bus, logger.child({ component: 'push-outbox' }));
    const directory = new DirectoryLookup(bus, { ttlMs: directoryCacheTtlMs, timeoutMs: settings.COMMAND_TIMEOUT_MS });
    const release = new DispatchRelease(store, directory, () => relay.wake(), logger.child({ component: 'push-release' }), {
      intervalMs: settings.PUSH_RELEASE_INTERVAL_MS,
      clock: options.clock,
    });
    // A write may have scheduled (or moved) a dispatch: the release looks within an interval.
    const eventsWritten = () => {
      relay.wake();
      release.wake();
    };
    registerPushService(bus, { store, directory, eventsWritten, clock: options.clock, maxOutstandingPerDevice: settings.PUSH_MAX_OUTSTANDING_PER_DEVICE });
    const deletions = new DeletionsSweep(
      { store, directory, eventsWritten },
      { intervalMs: settings.PUSH_DELETIONS_SWEEP_INTERVAL_MS, logger: logger.child({ component: 'push-deletions' }) },
    );
    relay.start();
    release.start();
    deletions.start();
    return runningService(pushServiceName, () => store.ping(), [() => deletions.stop(), () => release.stop(), () => relay.stop(), () => store.close()]);
  };
}

/** The push service as embedded mode and main.ts start it. */
export const startPushService: ServiceStarter<Bus> = pushServiceStarter();
