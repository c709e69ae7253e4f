import { createLogger, limitHeapGrowth, loadSettingsOrExit } from '@formcast/platform';
import { startEmbedded } from './start-embedded';

async function main(): Promise<void> {
  limitHeapGrowth();
  const settings = loadSettingsOrExit();
  const logger = createLogger({ level: settings.LOG_LEVEL, name: 'formcast' });
  const system = await startEmbedded(settings, logger);
  system.lifecycle.installProcessHandlers();
}

main().catch((error: unknown) => {
  process.stderr.write(`formcast failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
