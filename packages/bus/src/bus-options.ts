import type { BusOptions } from './port';

export type ResolvedBusOptions = Required<BusOptions>;

/** BUS_COMMANDS_PER_ORGANIZATION's default. */
export const defaultCommandsPerOrganization = 8;
/** BUS_EVENTS_PER_ORGANIZATION's default. */
export const defaultEventsPerOrganization = 128;

export function resolveBusOptions(options: BusOptions = {}): ResolvedBusOptions {
  return {
    maxAttempts: options.maxAttempts ?? 5,
    retryDelayMs: options.retryDelayMs ?? 100,
    defaultTimeoutMs: options.defaultTimeoutMs ?? 10_000,
    commandsPerOrganization: options.commandsPerOrganization ?? defaultCommandsPerOrganization,
    eventsPerOrganization: options.eventsPerOrganization ?? defaultEventsPerOrganization,
  };
}

/** The pause after failed attempt `attempt` (1-based): retryDelayMs, then doubled each time. */
export function retryDelayAfter(attempt: number, options: ResolvedBusOptions): number {
  return options.retryDelayMs * 2 ** (attempt - 1);
}

export function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
