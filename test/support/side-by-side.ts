/**
 * Scenarios that each wait on a server's timer (a request timeout, a drain) take the sum of
 * those waits when their tests run one after another. Declared with `scenario`, they start
 * together in a beforeAll (registered by `sideBySide()`, so call it after the suite's
 * useSystem: the system is up by then), and each test awaits its own scenario's outcome and
 * checks it. A scenario that throws fails its own test only.
 */
export function sideBySide(): <T>(run: () => Promise<T>) => () => Promise<T> {
  const starts: Array<() => void> = [];
  beforeAll(() => {
    for (const start of starts) start();
  });
  return <T>(run: () => Promise<T>) => {
    let outcome: Promise<T> | undefined;
    starts.push(() => {
      outcome = run();
      // Awaited by its test; until then a rejection is not unhandled.
      outcome.catch(() => undefined);
    });
    return () => {
      if (outcome === undefined) throw new Error('The scenario has not started: declare it after sideBySide(), and await it inside a test');
      return outcome;
    };
  };
}
