import { createLogger, Lifecycle, loadSettingsOrExit, type ServiceStarter } from '@formcast/platform';
import type { Bus } from './port';
import { createBus } from './create-bus';

/** A service's main.ts in distributed mode: settings, its own bus connection, graceful stop. */
export function runServiceAlone(name: string, start: ServiceStarter<Bus>): void {
  const settings = loadSettingsOrExit();
  const logger = createLogger({ level: settings.LOG_LEVEL, name });
  if (!settings.AMQP_URL) {
    process.stderr.write(`The ${name} service alone needs AMQP_URL; for one process on embedded defaults run \`npm start\`\n`);
    process.exit(1);
  }
  const lifecycle = new Lifecycle(logger);
  lifecycle.installProcessHandlers();
  const bus = createBus({ amqpUrl: settings.AMQP_URL, logger, connectionName: name });
  start({ bus, settings, logger })
    .then(async (service) => {
      lifecycle.onStop(name, () => service.stop());
      await bus.start();
      lifecycle.onStop('bus', () => bus.close());
      logger.info(`${name} serving`);
    })
    .catch((error: unknown) => {
      process.stderr.write(`${name} failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
      process.exit(1);
    });
}
