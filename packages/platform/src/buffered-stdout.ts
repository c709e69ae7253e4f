import pino from 'pino';

/** Bytes held before a write: a few dozen access lines a write(2) instead of one each. */
export const bufferedStdoutMinBytes = 4096;
/** The longest a line waits in the buffer on a quiet process (a reader tailing the log still sees it soon). */
export const bufferedStdoutFlushMs = 100;

type FlushableDestination = pino.DestinationStream & { flushSync(): void };

let destination: FlushableDestination | undefined;

/**
 * The process's one buffered stdout for its loggers (one, so lines keep their order): lines
 * gather in memory and go out in one write(2) once bufferedStdoutMinBytes are held, or every
 * bufferedStdoutFlushMs. A write(2) a line cost about 8% of the embedded push's main thread.
 * The writes stay synchronous: an asynchronous one (sync: false) is still in the thread pool
 * when the exit flush writes what follows it, and lines came out of order on SIGTERM (seen
 * in test, see buffered-stdout.test.ts). Everything held is written on process exit, which
 * every clean stop ends in (Lifecycle exits after SIGTERM/SIGINT, a failed start calls
 * process.exit), so the log is complete then; a SIGKILL cuts off at most the last
 * bufferedStdoutFlushMs of lines.
 */
export function bufferedStdout(): pino.DestinationStream {
  if (!destination) {
    const created = pino.destination({ dest: 1, sync: true, minLength: bufferedStdoutMinBytes, periodicFlush: bufferedStdoutFlushMs }) as FlushableDestination;
    process.on('exit', () => created.flushSync());
    destination = created;
  }
  return destination;
}

/** Writes out what the buffered stdout holds, at once: before the process writes to stdout itself, so its own text comes after the lines logged before it. */
export function flushBufferedStdout(): void {
  destination?.flushSync();
}
