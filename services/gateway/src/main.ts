import type { AddressInfo } from 'node:net';
import { createBus } from '@formcast/bus';
import { createLogger, Lifecycle, limitHeapGrowth, loadSettingsOrExit } from '@formcast/platform';
import { createGatewayApp } from './http/create-app';
import { closeServer, listenOn } from './http/listen';

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
  const bus = createBus({ amqpUrl: settings.AMQP_URL, logger, connectionName: 'gateway', prefix: settings.AMQP_PREFIX });
  await bus.start();
  lifecycle.onStop('bus', () => bus.close());
  const app = createGatewayApp({
    bus,
    logger,
    adminToken: settings.ADMIN_TOKEN,
    commandTimeoutMs: settings.COMMAND_TIMEOUT_MS,
    bodyLimitBytes: settings.BODY_LIMIT_BYTES,
    resourceMaxBytes: settings.RESOURCE_MAX_BYTES,
  });
  const server = await listenOn(app, settings.PORT).catch(async (error: unknown) => {
    await lifecycle.stop();
    throw error;
  });
  lifecycle.onStop('http server', () => closeServer(server));
  logger.info({ port: (server.address() as AddressInfo).port }, 'gateway listening');
}

main().catch((error: unknown) => {
  process.stderr.write(`gateway failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
