import type { AddressInfo } from 'node:net';
import { createBus, type Bus } from '@formcast/bus';
import { createLogger, Lifecycle, loadSettingsOrExit, type ServiceStarter } from '@formcast/platform';
import { fixedTokenCredential, LocalFcmAgent, standInProjectId } from '../../../test/support/fcm-stand-in';

/**
 * One process of distributed mode, as `services/<name>/dist/main.js` starts it (settings
 * from the environment, its own bus connection, graceful stop on SIGTERM), with what the
 * bench needs on top and main.ts does not take (yet):
 * - BENCH_AMQP_PREFIX: the topology prefix of this run, so it never meets another system
 *   on the broker (main.ts always uses `formcast`);
 * - notifier: BENCH_REDIS_PREFIX for its badge keys, and BENCH_FCM_PORT: firebase-admin
 *   sends to the FCM stand-in on that local port, with a fixed access token.
 * Reports `{ready, port?}` over IPC once it serves.
 */
const name = process.argv[2] ?? '';

/** Loaded on demand, so each process holds only its own service's code, as its main.ts does. */
const starters: Record<string, () => Promise<ServiceStarter<Bus>>> = {
  directory: async () => (await import('@formcast/directory')).startDirectoryService,
  push: async () => (await import('@formcast/push')).startPushService,
  resources: async () => (await import('@formcast/resources')).startResourcesService,
  notifier: async () => {
    const { FirebaseNotificationSender, startNotifier } = await import('@formcast/notifier');
    const fcmPort = process.env.BENCH_FCM_PORT;
    return (context) =>
      startNotifier(context, {
        redisKeyPrefix: process.env.BENCH_REDIS_PREFIX,
        sender: fcmPort
          ? new FirebaseNotificationSender({
              credential: fixedTokenCredential(),
              projectId: standInProjectId,
              httpAgent: new LocalFcmAgent(Number(fcmPort), { keepAlive: true, maxSockets: 256 }),
            })
          : undefined,
      });
  },
};

async function main(): Promise<void> {
  const settings = loadSettingsOrExit();
  const logger = createLogger({ level: settings.LOG_LEVEL, name });
  const lifecycle = new Lifecycle(logger);
  lifecycle.installProcessHandlers();
  const bus = createBus({ amqpUrl: settings.AMQP_URL, logger, connectionName: name, prefix: process.env.BENCH_AMQP_PREFIX });

  if (name === 'gateway') {
    const { createGatewayApp } = await import('@formcast/gateway');
    await bus.start();
    lifecycle.onStop('bus', () => bus.close());
    const app = createGatewayApp({
      bus,
      logger,
      adminToken: settings.ADMIN_TOKEN!,
      commandTimeoutMs: settings.COMMAND_TIMEOUT_MS,
      bodyLimitBytes: settings.BODY_LIMIT_BYTES,
      resourceMaxBytes: settings.RESOURCE_MAX_BYTES,
    });
    const server = app.listen(settings.PORT, '127.0.0.1', () => {
      const port = (server.address() as AddressInfo).port;
      logger.info({ port }, 'gateway listening');
      process.send?.({ ready: true, port });
    });
    lifecycle.onStop('http server', () => new Promise<void>((resolve) => server.close(() => resolve())));
    return;
  }

  const load = starters[name];
  if (!load) throw new Error(`unknown service ${name}`);
  const start = await load();
  const service = await start({ bus, settings, logger });
  lifecycle.onStop(name, () => service.stop());
  await bus.start();
  lifecycle.onStop('bus', () => bus.close());
  logger.info(`${name} serving`);
  process.send?.({ ready: true });
}

// Orphaned (the bench process died): stop as on SIGTERM.
process.once('disconnect', () => process.kill(process.pid, 'SIGTERM'));

main().catch((error: unknown) => {
  process.stderr.write(`${name} failed to start: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
