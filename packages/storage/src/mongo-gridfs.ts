import type { Writable } from 'node:stream';

/**
 * Writes `bytes` as the stream's last write and settles once the stream has finished: it
 * rejects with the stream's error if any write, or its final step, fails.
 *
 * The callback of `end()` is the place that error arrives: Node calls it with the error (in
 * the same tick, before `'error'` is emitted). The MongoDB driver's GridFS upload reports a
 * failed chunk insert and a failed files-document insert exactly that way (the callback of
 * `_write` / `_final`). A callback that ignores its argument (`end(bytes, () => resolve())`)
 * therefore turns a failed upload into a success. The `'error'` listener stays too: it keeps
 * the emitted error from being unhandled, and covers a stream destroyed some other way.
 */
export function endWritable(stream: Writable, bytes: Uint8Array): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    stream.once('error', reject);
    stream.end(bytes, (error?: Error | null) => {
      if (error) reject(error);
      else resolve();
    });
  });
}
