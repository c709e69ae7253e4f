/**
 * Scenarios that each wait on a timer (a server's timeout, a drain, the real clock reaching a
 * release) take the sum of those waits when their tests run one after another. Declared with
 * `scenario`, they start together in a beforeAll (registered by `sideBySide()`, so call it
 * after the suite's useSystem: the system is up by then), and each test awaits its own
 * scenario's outcome. A scenario that throws (an `expect` inside it too) fails its own test
 * only.
 *
 * `together: false` keeps them one after another (each starts when its test awaits it): for
 * a mode where they would disturb each other.
 */
export function sideBySide({ together = true }: { together?: boolean } = {}): <T>(run: () => Promise<T>) => () => Promise<T> {
  const starts: Array<() => void> = [];
  if (together) {
    beforeAll(() => {
      for (const start of starts) start();
    });
  }
  return <T>(run: () => Promise<T>) => {
    let outcome: Promise<T> | undefined;
    const start = () => {
      outcome = run();
      // Awaited by its test; until then a rejection is not unhandled.
      outcome.catch(() => undefined);
    };
    starts.push(start);
    return () => {
      if (outcome === undefined && !together) start();
      if (outcome === undefined) throw new Error('The scenario has not started: declare it after sideBySide(), and await it inside a test');
      return outcome;
    };
  };
}
