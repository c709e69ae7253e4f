import { join } from 'node:path';
import { registerServiceHandlers, type Bus } from '@formcast/bus';
import { openServiceStores, withIdempotencyKeys, type IdempotencyStore } from '@formcast/idempotency';
import { runningService, type Logger, type RunningService, type ServiceStarter, type Settings } from '@formcast/platform';
import { FormLookup } from './directory/form-lookup';
import type { DeliveryDeps } from './handlers/deps';
import { commandHandlers, eventHandlers, idempotentCommands } from './handler-table';
import { uriRefusal, type Resolver } from './sender/address-guard';
import { RenderPool } from './render/render-pool';
import { EmailSender } from './sender/email-sender';
import { HttpSender } from './sender/http-sender';
import { openDeliveryStore } from './store/open-delivery-store';
import { secretCipherFromSettings } from './secrets';
import { attemptDelivery } from './worker/attempt-delivery';
import { DeliveryWorker } from './worker/delivery-worker';
import { DeletedFormsSweep } from './worker/deleted-forms-sweep';
import { RetentionSweep } from './worker/retention-sweep';

export const deliveryServiceName = 'delivery';

/**
 * Serves the destination and delivery-log commands (Idempotency-Keys from `idempotencyKeys`),
 * and takes submissions as push announces them.
 */
export function registerDeliveryService(bus: Bus, deps: DeliveryDeps, idempotencyKeys?: IdempotencyStore): void {
  registerServiceHandlers(bus, deliveryServiceName, deps, {
    commands: withIdempotencyKeys(commandHandlers, idempotentCommands, idempotencyKeys),
    events: eventHandlers,
  });
}

export interface DeliveryServiceOptions {
  /** How often the worker looks for retries come due (default 1 s). */
  pollMs?: number;
  /** Name resolution for destinations (tests play DNS with it); default: the system's. */
  resolve?: Resolver;
  /** Epoch ms (tests move it). */
  now?: () => number;
}

/**
 * The delivery service on its settings: its store (MongoDB when MONGO_URL is set, else
 * `delivery.sqlite` under DATA_DIR), its signing secrets sealed under DELIVERY_SECRETS_KEY
 * (secrets in clear or under the previous key are sealed again first; a key that opens
 * none of them stops the start), the HTTP sender, the worker, which starts attempting once
 * the bus is up and stops (after the attempts under way) before the store closes, and beside
 * it the retention sweep and the sweep for destinations of forms the directory no longer has.
 */
export async function startDelivery(
  { bus, settings, logger }: { bus: Bus; settings: Settings; logger: Logger },
  options: DeliveryServiceOptions = {},
): Promise<RunningService> {
  const log = logger.child({ service: deliveryServiceName });
  const cipher = secretCipherFromSettings(settings, log);
  const sqliteFile = settings.MONGO_URL ? undefined : join(settings.DATA_DIR, 'delivery.sqlite');
  const { store, idempotencyKeys } = await openServiceStores(settings, deliveryServiceName, (storeSettings) => openDeliveryStore(storeSettings, cipher));
  try {
    const sealed = await store.destinations.sealSecrets();
    if (sealed > 0) log.info({ destinations: sealed, keyId: cipher.currentKeyId }, 'sealed signing secrets with the current key');
  } catch (error) {
    await idempotencyKeys.close();
    await store.close();
    throw error;
  }
  const now = options.now ?? Date.now;
  const allowPrivate = settings.DELIVERY_ALLOW_PRIVATE_NETWORKS;
  const http = new HttpSender({ timeoutMs: settings.DELIVERY_TIMEOUT_MS, allowPrivateNetworks: allowPrivate, resolve: options.resolve });
  const email = new EmailSender({
    timeoutMs: settings.DELIVERY_TIMEOUT_MS,
    defaultSmtpUrl: settings.DELIVERY_SMTP_URL,
    allowPrivateNetworks: allowPrivate,
    resolve: options.resolve,
  });
  const render = new RenderPool({
    workers: settings.DELIVERY_RENDER_WORKERS,
    timeoutMs: settings.DELIVERY_RENDER_TIMEOUT_MS,
    memoryMb: settings.DELIVERY_RENDER_MEMORY_MB,
  });
  // An attempt is cut at its timeout, and recorded within seconds: past that, its worker
  // is gone. Short, because a killed worker's leases hold its deliveries, and count against
  // their destinations' concurrency, until they end. A worker stalled past its lease has
  // the delivery sent again (with the same webhook-id): at least once, as ever. A document's
  // render (DELIVERY_RENDER_TIMEOUT_MS, its queue, the images) extends the lease while it
  // runs, and the send goes only if the claim is still the attempt's.
  const leaseMs = Math.max(settings.DELIVERY_TIMEOUT_MS, settings.COMMAND_TIMEOUT_MS) + 5_000;
  const attempt = attemptDelivery({
    http,
    bus,
    commandTimeoutMs: settings.COMMAND_TIMEOUT_MS,
    now,
    email: { store, render, email, mailFrom: settings.DELIVERY_MAIL_FROM },
    leaseMs,
  });
  const worker = new DeliveryWorker(store, attempt, {
    concurrency: settings.DELIVERY_CONCURRENCY,
    perDestination: settings.DELIVERY_DESTINATION_CONCURRENCY,
    perOrganization: settings.DELIVERY_ORGANIZATION_CONCURRENCY,
    leaseMs,
    pollMs: options.pollMs,
    now,
    ready: () => bus.isReady(),
    logger: log,
  });
  const sweep = new RetentionSweep(store, {
    retentionMs: settings.DELIVERY_RETENTION_DAYS * 24 * 60 * 60 * 1000,
    intervalMs: settings.DELIVERY_SWEEP_INTERVAL_MS,
    now,
    logger: log,
  });
  const forms = new FormLookup(bus, settings.COMMAND_TIMEOUT_MS);
  const deletedForms = new DeletedFormsSweep(store, forms, { intervalMs: settings.DELIVERY_SWEEP_INTERVAL_MS, logger: log });
  registerDeliveryService(
    bus,
    {
      store,
      forms,
      uriRefusal: (uri) => uriRefusal(uri, allowPrivate, options.resolve),
      defaultSmtp: email.hasDefaultServer,
      deliveriesDue: () => worker.wake(),
      maxDestinationsPerForm: settings.DELIVERY_MAX_DESTINATIONS_PER_FORM,
      now,
      logger: log,
    },
    idempotencyKeys,
  );
  worker.start();
  sweep.start();
  deletedForms.start();
  log.info(
    {
      allowPrivateNetworks: allowPrivate,
      timeoutMs: settings.DELIVERY_TIMEOUT_MS,
      smtp: settings.DELIVERY_SMTP_URL ? 'DELIVERY_SMTP_URL' : 'none (email destinations name their own)',
      retentionDays: settings.DELIVERY_RETENTION_DAYS,
      secretsKeyId: cipher.currentKeyId,
      ...(sqliteFile ? { sqliteFile } : {}),
    },
    'delivery ready',
  );
  return runningService(deliveryServiceName, () => store.ping(), [
    () => sweep.stop(),
    () => deletedForms.stop(),
    () => worker.stop(),
    () => render.close(),
    () => http.close(),
    () => store.close(),
    () => idempotencyKeys.close(),
  ]);
}

/** What embedded mode and main.ts start. */
export const startDeliveryService: ServiceStarter<Bus> = (context) => startDelivery(context);
