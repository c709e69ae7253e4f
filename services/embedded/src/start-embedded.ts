import type { AddressInfo } from 'node:net';
import { createBus, fairServiceOptions, type Bus } from '@formcast/bus';
import { configureMetrics } from '@formcast/metrics';
import { closeServer, createGatewayApp, GatewayRateLimits, httpTimeouts, listenOn, LoadShedder, loadSheddingSettings, rateLimitSettings, tlsFilesOf } from '@formcast/gateway';
import { describeAdapters, Lifecycle, type Logger, type RunningService, type ServiceStarter, type Settings } from '@formcast/platform';
import { resolveAdminToken } from './admin-token';
import { serviceStarters } from './service-starters';

export interface EmbeddedSystem {
  port: number;
  /** `https` when TLS_CERT_FILE and TLS_KEY_FILE are set. */
  protocol: 'http' | 'https';
  adminToken: string;
  lifecycle: Lifecycle;
  stop(): Promise<void>;
}

/** Every service in one process, adapters chosen by the settings (none set: embedded defaults). */
export async function startEmbedded(
  settings: Settings,
  logger: Logger,
  options: { starters?: ServiceStarter<Bus>[] } = {},
): Promise<EmbeddedSystem> {
  const lifecycle = new Lifecycle(logger);
  const { token: adminToken, keep: keepAdminToken } = resolveAdminToken(settings.ADMIN_TOKEN, settings.DATA_DIR, logger);
  configureMetrics({ enabled: settings.METRICS_ENABLED });

  const bus = createBus({ amqpUrl: settings.AMQP_URL, logger, connectionName: 'formcast', prefix: settings.AMQP_PREFIX, ...fairServiceOptions(settings) });
  const services: RunningService[] = [];
  for (const start of options.starters ?? serviceStarters) {
    const service = await start({ bus, settings, logger });
    lifecycle.onStop(service.name, () => service.stop());
    services.push(service);
  }

  await bus.start();
  lifecycle.onStop('bus', () => bus.close());

  const shedder = new LoadShedder(loadSheddingSettings(settings));
  lifecycle.onStop('load shedder', async () => shedder.stop());
  const app = createGatewayApp({
    bus,
    logger,
    adminToken,
    commandTimeoutMs: settings.COMMAND_TIMEOUT_MS,
    bodyLimitBytes: settings.BODY_LIMIT_BYTES,
    resourceMaxBytes: settings.RESOURCE_MAX_BYTES,
    submissionImageMaxBytes: settings.SUBMISSION_IMAGE_MAX_BYTES,
    timeouts: httpTimeouts(settings),
    // One process: the buckets live in it.
    rateLimits: new GatewayRateLimits(rateLimitSettings(settings)),
    loadShedding: shedder,
    // One port in embedded mode: /metrics on it, behind the admin token as /admin is.
    metrics: { record: settings.METRICS_ENABLED, serveWithAdminToken: settings.METRICS_ENABLED },
    isReady: async () => {
      await Promise.all(services.map((service) => service.ping()));
      return true;
    },
  });
  const tlsFiles = tlsFilesOf(settings);
  const protocol = tlsFiles ? 'https' : 'http';
  const server = await listenOn(app, settings.PORT, httpTimeouts(settings), tlsFiles && { files: tlsFiles, logger }, settings.HTTP_ACCEPT_SOCKETS).catch(async (error: unknown) => {
    await lifecycle.stop(); // what started so far, so a failed start leaves nothing running
    throw error;
  });
  lifecycle.onStop('http server', () => closeServer(server));
  keepAdminToken(); // only now: a start that failed above spent no generated token
  const port = (server.address() as AddressInfo).port;
  logger.info({ port, protocol, adapters: describeAdapters(settings) }, 'formcast is listening');
  return { port, protocol, adminToken, lifecycle, stop: () => lifecycle.stop() };
}
