import { RepeatingTask } from '../src/repeating-task';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const until = async (done: () => boolean) => {
  while (!done()) await sleep(2);
};

describe('RepeatingTask', () => {
  it('runs again an interval after each run ended, never two at once, and no more once stopped', async () => {
    let runs = 0;
    let inFlight = 0;
    let mostAtOnce = 0;
    const task = new RepeatingTask(
      async () => {
        runs += 1;
        inFlight += 1;
        mostAtOnce = Math.max(mostAtOnce, inFlight);
        await sleep(15); // longer than the interval: a timer per interval would overlap runs
        inFlight -= 1;
      },
      { intervalMs: 5, failed: () => undefined },
    );
    task.start(0);
    task.start(0); // started already: no second timer
    // Three runs, however long a busy machine takes (a fixed 120 ms saw only two under load).
    await until(() => runs >= 3);
    await task.stop();
    const stoppedAt = runs;
    expect(mostAtOnce).toBe(1);
    expect(inFlight).toBe(0); // stop waited for the run under way
    await sleep(50);
    expect(runs).toBe(stoppedAt);
  });

  it('passes a failed run to `failed` and runs again as usual', async () => {
    const failures: unknown[] = [];
    let runs = 0;
    const task = new RepeatingTask(
      async () => {
        runs += 1;
        if (runs === 1) throw new Error('store unavailable');
      },
      { intervalMs: 5, failed: (error) => failures.push(error) },
    );
    task.start(0);
    // A second run after the failed one, however long a busy machine takes (a fixed 60 ms saw one on Node 22 in CI).
    await until(() => runs >= 2);
    await task.stop();
    expect(failures).toEqual([new Error('store unavailable')]);
  });

  it('waits one interval before the first run unless told otherwise, and starts again after a stop', async () => {
    const runAt: number[] = [];
    const task = new RepeatingTask(async () => void runAt.push(performance.now()), { intervalMs: 40, failed: () => undefined });
    const startedAt = performance.now();
    task.start();
    await until(() => runAt.length === 1);
    await task.stop();
    expect(runAt[0]! - startedAt).toBeGreaterThanOrEqual(35);
    const restartedAt = performance.now();
    task.start(0);
    await until(() => runAt.length === 2);
    await task.stop();
    expect(runAt[1]! - restartedAt).toBeLessThan(35);
  });
});
