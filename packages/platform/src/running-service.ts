import type { Logger } from 'pino';
import type { Settings } from './settings';

/** A service started from its settings: what embedded mode and each main.ts hold on to. */
export interface RunningService {
  name: string;
  /** Readiness: resolves when its stores answer, rejects otherwise. */
  ping(): Promise<void>;
  /** Closes what it opened (its stores); the bus is closed by whoever created it. */
  stop(): Promise<void>;
}

/** A running service whose `stop` runs `stopInOrder` one after the other (each awaited), in the order given. */
export function runningService(name: string, ping: () => Promise<void>, stopInOrder: Array<() => Promise<void>>): RunningService {
  return {
    name,
    ping,
    stop: async () => {
      for (const stop of stopInOrder) await stop();
    },
  };
}

/**
 * Starts a service on a bus its caller created and will start: registers its handlers and
 * subscriptions, opens its stores from the settings (MongoDB when MONGO_URL is set, else
 * SQLite under DATA_DIR).
 */
export type ServiceStarter<B> = (context: { bus: B; settings: Settings; logger: Logger }) => Promise<RunningService>;
