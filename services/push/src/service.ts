import { handlersByName, registerServiceHandlers, type Bus, type EventHandler } from '@formcast/bus';
import { directoryEvents, pushCommands as commands } from '@formcast/contracts';
import { idempotent } from '@formcast/idempotency';
import { runningService, type ServiceStarter } from '@formcast/platform';
import { storeSettingsOf } from '@formcast/storage';
import { DirectoryLookup } from './directory-cache/directory-lookup';
import { createDispatches } from './handlers/create-dispatches';
import { createOneshot } from './handlers/create-oneshot';
import type { PushDeps } from './handlers/deps';
import { deviceGetOneshot } from './handlers/device-get-oneshot';
import { deviceListOneshots } from './handlers/device-list-oneshots';
import { deviceSubmitOneshot } from './handlers/device-submit-oneshot';
import { getDispatch } from './handlers/get-dispatch';
import { getSubmission } from './handlers/get-submission';
import { getSubmissionImage } from './handlers/get-submission-image';
import { listDeviceDispatches } from './handlers/list-device-dispatches';
import { listOrganizationDispatches } from './handlers/list-organization-dispatches';
import { revokeDispatch } from './handlers/revoke-dispatch';
import { deviceChanged, formChanged } from './handlers/directory-changed';
import { findOutstandingOneshot } from './handlers/find-outstanding-oneshot';
import { listDeviceOneshots } from './handlers/list-device-oneshots';
import { listFormSubmissions } from './handlers/list-form-submissions';
import { listOrganizationOneshots } from './handlers/list-organization-oneshots';
import { revokeAllOneshots } from './handlers/revoke-all-oneshots';
import { revokeOneshot } from './handlers/revoke-oneshot';
import { saveSubmissionImage } from './handlers/save-submission-image';
import { downloadSubmissionImage, getSubmissionImageMd5 } from './handlers/submission-image-queries';
import { submissionMetrics } from './handlers/submission-metrics';
import { submitForm } from './handlers/submit-form';
import { updateOneshot } from './handlers/update-oneshot';
import { OutboxRelay } from './outbox/outbox-relay';
import { DispatchRelease } from './release/dispatch-release';
import { openPushStore } from './store/open-push-store';

export const pushServiceName = 'push';

/**
 * The creates answer once per Idempotency-Key, from the keys of the push store: a dispatch
 * records its key with the oneshot, in one transaction (see createOneshot); a bulk request's
 * key, for the whole request, is claimed before and completed after (`idempotent`), and a
 * claim left by a process that died runs again under the first command's id, whose items the
 * store's applied commands answer.
 */
const commandHandlers = handlersByName<typeof commands, PushDeps>(commands, {
  createOneshot,
  updateOneshot,
  listDeviceOneshots,
  findOutstandingOneshot,
  listOrganizationOneshots,
  revokeOneshot,
  revokeAllOneshots,
  deviceListOneshots,
  deviceGetOneshot,
  deviceSubmitOneshot,
  submitForm,
  listFormSubmissions,
  createDispatches: (deps) => idempotent(deps.store.keys, createDispatches(deps)),
  listDeviceDispatches,
  listOrganizationDispatches,
  getDispatch,
  revokeDispatch,
  getSubmission,
  saveSubmissionImage,
  getSubmissionImageMd5,
  downloadSubmissionImage,
  submissionMetrics,
  getSubmissionImage,
});

const eventHandlers: Record<string, (deps: PushDeps) => EventHandler> = {
  [directoryEvents.deviceChanged]: deviceChanged,
  [directoryEvents.formChanged]: formChanged,
};

export function registerPushService(bus: Bus, deps: PushDeps): void {
  registerServiceHandlers(bus, pushServiceName, deps, { commands: commandHandlers, events: eventHandlers });
}

/** How long a cached device or template may be used without the directory's word. */
const directoryCacheTtlMs = 10_000;

/**
 * The push service on its settings' store, with its outbox relay and the release of
 * scheduled dispatches. `clock`: the time for what compares with scheduled times (tests
 * give their own); the system clock unless given.
 */
export function pushServiceStarter(options: { clock?: () => Date } = {}): ServiceStarter<Bus> {
  return async ({ bus, settings, logger }) => {
    const store = await openPushStore(storeSettingsOf(settings, 'push'));
    const relay = new OutboxRelay(store, bus, logger.child({ component: 'push-outbox' }));
    const directory = new DirectoryLookup(bus, { ttlMs: directoryCacheTtlMs, timeoutMs: settings.COMMAND_TIMEOUT_MS });
    const eventsWritten = () => relay.wake();
    const release = new DispatchRelease(store, directory, eventsWritten, logger.child({ component: 'push-release' }), {
      intervalMs: settings.PUSH_RELEASE_INTERVAL_MS,
      clock: options.clock,
    });
    registerPushService(bus, { store, directory, eventsWritten, clock: options.clock, maxOutstandingPerDevice: settings.PUSH_MAX_OUTSTANDING_PER_DEVICE });
    relay.start();
    release.start();
    return runningService(pushServiceName, () => store.ping(), [() => release.stop(), () => relay.stop(), () => store.close()]);
  };
}

/** The push service as embedded mode and main.ts start it. */
export const startPushService: ServiceStarter<Bus> = pushServiceStarter();
