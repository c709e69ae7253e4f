import type { AddressInfo } from 'node:net';
import { createBus } from '@formcast/bus';
import { configureMetrics, startMetricsServer } from '@formcast/metrics';
import { createLogger, Lifecycle, limitHeapGrowth, loadSettingsOrExit } from '@formcast/platform';
import { startTracingOrExit } from '@formcast/tracing';
import { createGatewayApp } from './http/create-app';
import { httpTimeouts } from './http/http-timeouts';
import { closeServer, listenOn } from './http/listen';
import { LoadShedder, loadSheddingSettings } from './http/load-shedding';
import { GatewayRateLimits, rateLimitSettings, type RateLimitStore } from './http/rate-limit';
import { tlsFilesOf } from './http/tls-files';

/** The gateway alone (distributed mode): HTTP in, commands out over RabbitMQ. */
async function main(): Promise<void> {
  limitHeapGrowth();
  const settings = loadSettingsOrExit();
  const logger = createLogger({ level: settings.LOG_LEVEL, name: 'gateway' });
  if (!settings.AMQP_URL || !settings.ADMIN_TOKEN) {
    process.stderr.write('The gateway alone needs AMQP_URL and ADMIN_TOKEN; for one process on embedded defaults run `npm start`\n');
    process.exit(1);
  }
  const lifecycle = new Lifecycle(logger);
  lifecycle.installProcessHandlers({ graceMs: settings.SHUTDOWN_GRACE_MS });
  // Before the app is made: its request spans are registered only while tracing is on.
  const tracing = startTracingOrExit('formcast-gateway');
  if (tracing) lifecycle.onStop('traces', () => tracing.stop());
  configureMetrics({ enabled: settings.METRICS_ENABLED });
  if (settings.METRICS_ENABLED) {
    // A port of its own: the public Service exposes PORT only, Prometheus scrapes this one.
    const metrics = await startMetricsServer(settings.METRICS_PORT).catch((error: unknown) => {
      throw new Error(`Cannot serve /metrics on METRICS_PORT ${settings.METRICS_PORT}: ${(error as Error).message}`);
    });
    lifecycle.onStop('metrics endpoint', () => metrics.close());
    logger.info({ metricsPort: metrics.port }, 'metrics listening');
  }
  const bus = createBus({ amqpUrl: settings.AMQP_URL, logger, connectionName: 'gateway', prefix: settings.AMQP_PREFIX });
  await bus.start();
  lifecycle.onStop('bus', () => bus.close());
  const rateLimitStore = rateLimitStoreOf(settings.REDIS_URL, lifecycle);
  const shedder = new LoadShedder(loadSheddingSettings(settings));
  lifecycle.onStop('load shedder', async () => shedder.stop());
  const app = createGatewayApp({
    bus,
    logger,
    adminToken: settings.ADMIN_TOKEN,
    commandTimeoutMs: settings.COMMAND_TIMEOUT_MS,
    bodyLimitBytes: settings.BODY_LIMIT_BYTES,
    resourceMaxBytes: settings.RESOURCE_MAX_BYTES,
    submissionImageMaxBytes: settings.SUBMISSION_IMAGE_MAX_BYTES,
    timeouts: httpTimeouts(settings),
    rateLimits: new GatewayRateLimits(rateLimitSettings(settings), rateLimitStore),
    loadShedding: shedder,
  });
  const tlsFiles = tlsFilesOf(settings);
  const tls = tlsFiles && { files: tlsFiles, logger };
  const server = await listenOn(app, settings.PORT, httpTimeouts(settings), tls, settings.HTTP_ACCEPT_SOCKETS).catch(async (error: unknown) => {
    await lifecycle.stop();
    throw error;
  });
  lifecycle.onStop('http server', () => closeServer(server));
  logger.info({ port: (server.address() as AddressInfo).port, protocol: tls ? 'https' : 'http' }, 'gateway listening');
}

/**
 * With REDIS_URL, the rate limits' buckets are in Redis, shared by every gateway replica
 * (ioredis loaded only then); without it, in this process.
 */
function rateLimitStoreOf(redisUrl: string | undefined, lifecycle: Lifecycle): RateLimitStore {
  if (!redisUrl) return { kind: 'memory' };
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { Redis } = require('ioredis') as typeof import('ioredis');
  // No offline queue: a Redis that is away fails a take at once, and the process's own buckets answer.
  const client = new Redis(redisUrl, { enableOfflineQueue: false, maxRetriesPerRequest: 1 });
  client.on('error', () => undefined);
  lifecycle.onStop('rate limit store', async () => {
    client.disconnect();
  });
  return { kind: 'redis', client };
}

main().catch((error: unknown) => {
  process.stderr.write(`gateway failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
