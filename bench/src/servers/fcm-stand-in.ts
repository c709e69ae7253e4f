import { FcmStandIn } from '../../../test/support/fcm-stand-in';

/**
 * The tests' FCM stand-in in a process of its own (so its work is not the bench driver's).
 * IPC: reports `{ready, port}`; answers `{count}` with `{count, firstAt, lastAt}` (epoch ms
 * of the first and last message received); `{clear}` forgets what it received.
 */
async function main(): Promise<void> {
  const standIn = await FcmStandIn.start();
  process.on('message', (message: { count?: boolean; clear?: boolean }) => {
    if (message.clear) {
      standIn.clear();
      process.send?.({ cleared: true });
    }
    if (message.count) {
      const received = standIn.received;
      process.send?.({ count: received.length, firstAt: received[0]?.at ?? null, lastAt: received.at(-1)?.at ?? null });
    }
  });
  process.once('SIGTERM', () => void standIn.close().finally(() => process.exit(0)));
  process.send?.({ ready: true, port: standIn.port });
}

// Orphaned (the bench process died): stop as on SIGTERM.
process.once('disconnect', () => process.kill(process.pid, 'SIGTERM'));

main().catch((error: unknown) => {
  process.stderr.write(`FCM stand-in failed: ${String(error)}\n`);
  process.exit(1);
});
