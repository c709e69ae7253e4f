export interface WaitForOptions {
  timeoutMs?: number;
  intervalMs?: number;
  /** Names the awaited condition in the timeout error. */
  description?: string;
}

/**
 * Polls `predicate` until it returns a truthy value, and returns that value. A predicate
 * that throws counts as "not yet"; its last error is reported if the time runs out.
 */
export async function waitFor<T>(
  predicate: () => T | Promise<T>,
  { timeoutMs = 5000, intervalMs = 25, description = 'the condition' }: WaitForOptions = {},
): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      const value = await predicate();
      if (value) return value as NonNullable<T>;
    } catch (error) {
      lastError = error;
    }
    if (Date.now() >= deadline) {
      const lastMessage = (lastError as { message?: unknown } | undefined)?.message;
      const reason = typeof lastMessage === 'string' ? ` (last error: ${lastMessage})` : '';
      throw new Error(`Timed out after ${timeoutMs} ms waiting for ${description}${reason}`);
    }
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
