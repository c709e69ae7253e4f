/**
 * A receiver process stops on SIGTERM (`close`, then exit 0), and as on SIGTERM when orphaned
 * (the bench process died).
 */
export function stopOnSigterm(close: (closed: () => void) => void): void {
  process.once('SIGTERM', () => close(() => process.exit(0)));
  process.once('disconnect', () => process.kill(process.pid, 'SIGTERM'));
}
