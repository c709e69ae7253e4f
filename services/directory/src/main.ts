import { join } from 'node:path';
import { createBus } from '@formcast/bus';
import { createLogger, Lifecycle, loadSettingsOrExit } from '@formcast/platform';
import { registerDirectoryService } from './service';
import { openDirectoryStore } from './store';

/** The directory alone (distributed mode): serves its commands from RabbitMQ. */
async function main(): Promise<void> {
  const settings = loadSettingsOrExit();
  const logger = createLogger({ level: settings.LOG_LEVEL, name: 'directory' });
  if (!settings.AMQP_URL) {
    process.stderr.write('The directory alone needs AMQP_URL; for one process on embedded defaults run `npm start`\n');
    process.exit(1);
  }
  const lifecycle = new Lifecycle(logger);
  lifecycle.installProcessHandlers();
  const store = await openDirectoryStore({ mongoUrl: settings.MONGO_URL, sqliteFile: join(settings.DATA_DIR, 'directory.sqlite') });
  lifecycle.onStop('store', () => store.close());
  const bus = createBus({ amqpUrl: settings.AMQP_URL, logger });
  registerDirectoryService(bus, { store, formNamespaceBase: settings.FORM_NAMESPACE_BASE });
  await bus.start();
  lifecycle.onStop('bus', () => bus.close());
  logger.info('directory serving');
}

main().catch((error: unknown) => {
  process.stderr.write(`directory failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
