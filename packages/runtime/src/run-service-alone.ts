import { createBus, fairServiceOptions, type Bus } from '@formcast/bus';
import { configureMetrics } from '@formcast/metrics';
import {
  createLogger,
  Lifecycle,
  limitHeapGrowth,
  loadSettingsOrExit,
  type Logger,
  type RunningService,
  type ServiceStarter,
  type Settings,
} from '@formcast/platform';
import { startTracingOrExit } from '@formcast/tracing';
import { startHealthServer } from './health-server';

export interface ServiceAlone {
  /** Where `/healthz`, `/readyz` and `/metrics` answer (HEALTH_PORT, or the free port picked for 0). */
  healthPort: number;
  /** What SIGTERM does: not ready any more, stop consuming, finish in-flight work, close. */
  stop(): Promise<void>;
}

/**
 * One service as a process of its own: health endpoints first (alive while it connects,
 * ready once its bus is up and its stores answer), then the service on its own AMQP
 * connection. Every step is registered on `lifecycle`, so stopping undoes them in reverse:
 * readiness goes false, the bus stops consuming and waits for in-flight handlers, the
 * service closes its stores, the health endpoints close last.
 */
export async function startServiceAlone(
  name: string,
  start: ServiceStarter<Bus>,
  {
    settings,
    logger,
    lifecycle = new Lifecycle(logger),
    prefetch,
  }: { settings: Settings; logger: Logger; lifecycle?: Lifecycle; prefetch?: number },
): Promise<ServiceAlone> {
  const amqpUrl = settings.AMQP_URL;
  if (!amqpUrl) throw new Error(`The ${name} service alone needs AMQP_URL; for one process on embedded defaults run \`npm start\``);
  let bus: Bus | undefined;
  let service: RunningService | undefined;
  let stopping = false;
  configureMetrics({ enabled: settings.METRICS_ENABLED });
  const health = await startHealthServer({
    port: settings.HEALTH_PORT,
    ready: async () => {
      if (stopping) throw new Error('stopping');
      if (!service) throw new Error('starting');
      if (!bus?.isReady()) throw new Error('not connected to the broker');
      await service.ping().catch((error: unknown) => {
        throw new Error(`${name}: ${error instanceof Error ? error.message : String(error)}`);
      });
    },
  }).catch((error: unknown) => {
    throw new Error(`Cannot serve health endpoints on HEALTH_PORT ${settings.HEALTH_PORT}: ${(error as Error).message}`);
  });
  lifecycle.onStop('health endpoints', () => health.close());
  logger.info({ healthPort: health.port }, 'health endpoints listening');
  try {
    // An explicit `prefetch` (the notifier's) holds for its commands too.
    const fair = { ...fairServiceOptions(settings), ...(prefetch === undefined ? {} : { commandPrefetch: prefetch }) };
    const ownBus = createBus({ amqpUrl, logger, connectionName: name, prefix: settings.AMQP_PREFIX, prefetch, ...fair });
    bus = ownBus;
    const running = await start({ bus: ownBus, settings, logger });
    lifecycle.onStop(name, () => running.stop());
    service = running;
    lifecycle.onStop('bus', () => ownBus.close());
    await ownBus.start();
  } catch (error) {
    await lifecycle.stop();
    throw error;
  }
  // Registered last, so it runs first: readiness turns false before anything closes.
  lifecycle.onStop('readiness', () => {
    stopping = true;
  });
  logger.info({ healthPort: health.port, prefix: settings.AMQP_PREFIX }, `${name} serving`);
  return { healthPort: health.port, stop: () => lifecycle.stop() };
}

/**
 * A service's main.ts in distributed mode: settings, its own bus connection, health
 * endpoints, graceful stop. `prefetch`: messages a consumer takes at once (default 32).
 */
export function runServiceAlone(name: string, start: ServiceStarter<Bus>, options: { prefetch?: number } = {}): void {
  limitHeapGrowth();
  const settings = loadSettingsOrExit();
  const logger = createLogger({ level: settings.LOG_LEVEL, name });
  if (!settings.AMQP_URL) {
    process.stderr.write(`The ${name} service alone needs AMQP_URL; for one process on embedded defaults run \`npm start\`\n`);
    process.exit(1);
  }
  const lifecycle = new Lifecycle(logger);
  lifecycle.installProcessHandlers({ graceMs: settings.SHUTDOWN_GRACE_MS });
  // Registered first, so stopped last: the spans of the stop itself are exported too.
  const tracing = startTracingOrExit(`formcast-${name}`);
  if (tracing) lifecycle.onStop('traces', () => tracing.stop());
  startServiceAlone(name, start, { settings, logger, lifecycle, prefetch: options.prefetch }).catch((error: unknown) => {
    process.stderr.write(`${name} failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  });
}
