import type { Writable } from 'node:stream';
import type { mongo } from 'mongoose';

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

/**
 * Stores `bytes` as a file of the bucket named `name`, with `metadata`, and answers its id. A
 * failed upload (a chunk or the files document not inserted: see endWritable) rejects and
 * leaves no file behind.
 */
export async function uploadGridFsFile(bucket: mongo.GridFSBucket, name: string, bytes: Uint8Array, metadata: Record<string, unknown>): Promise<mongo.ObjectId> {
  const upload = bucket.openUploadStream(name, { metadata });
  try {
    await endWritable(upload, bytes);
  } catch (error) {
    await deleteGridFsFile(bucket, upload.id).catch(() => undefined);
    throw error;
  }
  return upload.id;
}

/**
 * The file's bytes, or null when it no longer exists whole: deleted (not found), or deleted
 * while it was read (a chunk missing, or fewer bytes than `size`: GridFS ends the read
 * quietly where the chunks end).
 */
export async function downloadGridFsFile(bucket: mongo.GridFSBucket, fileId: mongo.ObjectId, size: number): Promise<Buffer | null> {
  const chunks: Buffer[] = [];
  try {
    for await (const chunk of bucket.openDownloadStream(fileId)) chunks.push(chunk as Buffer);
  } catch (error) {
    if (isFileNotFound(error) || isChunkMissing(error)) return null;
    throw error;
  }
  const bytes = Buffer.concat(chunks);
  return bytes.length === size ? bytes : null;
}

/** Deletes a file of the bucket; one already gone is fine. */
export async function deleteGridFsFile(bucket: mongo.GridFSBucket, fileId: mongo.ObjectId): Promise<void> {
  try {
    await bucket.delete(fileId);
  } catch (error) {
    if (!isFileNotFound(error)) throw error;
  }
}

/** The driver's MongoGridFSChunkError for a chunk missing: the file was deleted while it was read. */
function isChunkMissing(error: unknown): boolean {
  const message = (error as { message?: unknown } | null)?.message;
  return typeof message === 'string' && message.startsWith('ChunkIsMissing');
}

function isFileNotFound(error: unknown): boolean {
  const message = (error as { message?: unknown } | null)?.message;
  return typeof message === 'string' && /file ?not ?found/i.test(message);
}
