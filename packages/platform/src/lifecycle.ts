import type { Logger } from 'pino';

type StopStep = { name: string; stop: () => Promise<void> | void };

/**
 * Graceful stop: steps run in reverse order of registration (last started, first
 * stopped), each once, on SIGTERM/SIGINT or when `stop()` is called.
 */
export class Lifecycle {
  private readonly steps: StopStep[] = [];
  private stopping: Promise<void> | null = null;

  constructor(private readonly logger: Logger) {}

  onStop(name: string, stop: () => Promise<void> | void): void {
    this.steps.push({ name, stop });
  }

  stop(): Promise<void> {
    this.stopping ??= (async () => {
      for (const step of [...this.steps].reverse()) {
        try {
          await step.stop();
        } catch (error) {
          this.logger.error({ err: error, step: step.name }, 'error while stopping');
        }
      }
    })();
    return this.stopping;
  }

  /** Signals stop the process gracefully; a crash is logged and ends it cleanly. */
  installProcessHandlers(options: { graceMs?: number } = {}): void {
    const graceMs = options.graceMs ?? 25000;
    const shutdown = (signal: string, code: number) => {
      this.logger.info({ signal }, 'stopping');
      const timer = setTimeout(() => {
        this.logger.error('graceful stop took too long; exiting');
        process.exit(1);
      }, graceMs);
      timer.unref();
      void this.stop().then(() => process.exit(code));
    };
    process.once('SIGTERM', () => shutdown('SIGTERM', 0));
    process.once('SIGINT', () => shutdown('SIGINT', 0));
    process.on('uncaughtException', (err) => {
      this.logger.fatal({ err }, 'uncaught exception');
      shutdown('uncaughtException', 1);
    });
    process.on('unhandledRejection', (err) => {
      this.logger.fatal({ err }, 'unhandled rejection');
      shutdown('unhandledRejection', 1);
    });
  }
}
