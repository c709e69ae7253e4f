import { createLogger, limitHeapGrowth, loadSettingsOrExit } from '@formcast/platform';
import { startTracingOrExit } from '@formcast/tracing';
import { startEmbedded } from './start-embedded';
import { startupBanner } from './startup-banner';

async function main(): Promise<void> {
  limitHeapGrowth();
  const settings = loadSettingsOrExit();
  const logger = createLogger({ level: settings.LOG_LEVEL, name: 'formcast' });
  const tracing = startTracingOrExit('formcast');
  const system = await startEmbedded(settings, logger);
  if (tracing) system.lifecycle.onStop('traces', () => tracing.stop());
  system.lifecycle.installProcessHandlers({ graceMs: settings.SHUTDOWN_GRACE_MS });
  process.stdout.write(
    startupBanner({
      protocol: system.protocol,
      port: system.port,
      configuredAdminToken: settings.ADMIN_TOKEN,
      dataDir: settings.DATA_DIR,
    }),
  );
}

main().catch((error: unknown) => {
  process.stderr.write(`formcast failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
