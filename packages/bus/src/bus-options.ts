import type { BusOptions } from './port';

export type ResolvedBusOptions = Required<BusOptions>;

export function resolveBusOptions(options: BusOptions = {}): ResolvedBusOptions {
  return {
    maxAttempts: options.maxAttempts ?? 5,
    retryDelayMs: options.retryDelayMs ?? 100,
    defaultTimeoutMs: options.defaultTimeoutMs ?? 10_000,
  };
}

/** The pause after failed attempt `attempt` (1-based): retryDelayMs, then doubled each time. */
export function retryDelayAfter(attempt: number, options: ResolvedBusOptions): number {
  return options.retryDelayMs * 2 ** (attempt - 1);
}

export function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
