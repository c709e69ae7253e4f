import { Readable, Writable } from 'node:stream';
import type { mongo } from 'mongoose';
import { deleteGridFsFile, downloadGridFsFile, endWritable, uploadGridFsFile } from '../src';

/** A real Writable that keeps what it is given and fails where it is told to. */
function writable(fail: { onWrite?: Error; onFinal?: Error; finalDelayMs?: number } = {}) {
  const written: Buffer[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      if (fail.onWrite) return setImmediate(() => callback(fail.onWrite));
      written.push(chunk);
      callback();
    },
    // As the GridFS upload does: the last chunk and the files document are written in _final.
    final(callback) {
      setTimeout(() => callback(fail.onFinal ?? null), fail.finalDelayMs ?? 1);
    },
  });
  return { stream, written };
}

describe('endWritable (the GridFS upload of a resource)', () => {
  it('resolves once the stream has finished, with every byte written', async () => {
    const { stream, written } = writable();
    await endWritable(stream, Buffer.from('the bytes'));
    expect(Buffer.concat(written).toString()).toBe('the bytes');
    expect(stream.writableFinished).toBe(true);
  });

  it('rejects when the final write fails (a files document the server did not take)', async () => {
    const { stream } = writable({ onFinal: new Error('not primary: write concern failed') });
    await expect(endWritable(stream, Buffer.from('x'))).rejects.toThrow('not primary: write concern failed');
  });

  it('rejects when a write fails (a chunk the server did not take)', async () => {
    const { stream } = writable({ onWrite: new Error('chunk insert failed') });
    await expect(endWritable(stream, Buffer.from('x'))).rejects.toThrow('chunk insert failed');
  });

  it('rejects a stream that failed before it was ended', async () => {
    const { stream } = writable();
    stream.on('error', () => undefined);
    stream.destroy(new Error('destroyed before'));
    await expect(endWritable(stream, Buffer.from('x'))).rejects.toThrow();
  });

  it('is needed: the end callback that ignores its argument (the former upload) resolves a failed upload', async () => {
    // The reason for the helper, shown on the same stream: Node hands the error to the end
    // callback before it emits 'error', so `end(bytes, () => resolve())` settles as a success.
    const { stream } = writable({ onFinal: new Error('lost') });
    const naive = new Promise<'resolved'>((resolve, reject) => {
      stream.once('error', reject);
      stream.end(Buffer.from('x'), () => resolve('resolved'));
    });
    await expect(naive).resolves.toBe('resolved');
  });
});

/**
 * A GridFS bucket in memory (no MongoDB here), answering as the driver does: uploads through
 * a real Writable, downloads through a real Readable, and the driver's messages for a file
 * not found and a chunk missing.
 */
function memoryBucket(fail: { upload?: Error; chunkMissing?: boolean } = {}) {
  const files = new Map<number, { name: string; bytes: Buffer; metadata: unknown }>();
  let nextId = 1;
  const bucket = {
    openUploadStream(name: string, options: { metadata: unknown }) {
      const id = nextId++;
      const chunks: Buffer[] = [];
      // As the driver does, the chunks are stored as they come: a failed upload leaves them.
      files.set(id, { name, bytes: Buffer.alloc(0), metadata: options.metadata });
      const stream = new Writable({
        write(chunk: Buffer, _encoding, callback) {
          chunks.push(chunk);
          files.get(id)!.bytes = Buffer.concat(chunks);
          callback();
        },
        final(callback) {
          setImmediate(() => callback(fail.upload ?? null));
        },
      });
      return Object.assign(stream, { id });
    },
    openDownloadStream(id: number) {
      const file = files.get(id);
      return new Readable({
        read() {
          if (!file) return this.destroy(new Error(`File not found for id ${id}`));
          if (fail.chunkMissing) return this.destroy(new Error(`ChunkIsMissing: Got unexpected n: 1, expected: 0`));
          this.push(file.bytes);
          this.push(null);
        },
      });
    },
    async delete(id: number) {
      if (!files.delete(id)) throw new Error(`File not found for id ${id}`);
    },
  };
  return { bucket: bucket as unknown as mongo.GridFSBucket, files };
}
const fileId = (id: number) => id as unknown as mongo.ObjectId;

describe('the GridFS file helpers (uploads, downloads and deletes of resources and submission images)', () => {
  it('uploads a file with its name and metadata, and downloads its bytes', async () => {
    const { bucket, files } = memoryBucket();
    const id = await uploadGridFsFile(bucket, 'resource-7', Buffer.from('the bytes'), { orgId: 1, resourceId: 7 });
    expect(files.get(id as unknown as number)).toEqual({ name: 'resource-7', bytes: Buffer.from('the bytes'), metadata: { orgId: 1, resourceId: 7 } });
    expect((await downloadGridFsFile(bucket, id, 9))?.toString()).toBe('the bytes');
  });

  it('rejects a failed upload and leaves no file behind', async () => {
    const { bucket, files } = memoryBucket({ upload: new Error('not primary: write concern failed') });
    await expect(uploadGridFsFile(bucket, 'resource-7', Buffer.from('x'), {})).rejects.toThrow('not primary');
    expect(files.size).toBe(0);
  });

  it('answers null for a file gone, a chunk missing or fewer bytes than the record says', async () => {
    const { bucket } = memoryBucket();
    expect(await downloadGridFsFile(bucket, fileId(404), 1)).toBeNull();
    const id = await uploadGridFsFile(bucket, 'short', Buffer.from('abc'), {});
    expect(await downloadGridFsFile(bucket, id, 4)).toBeNull();
    const damaged = memoryBucket({ chunkMissing: true });
    const kept = await uploadGridFsFile(damaged.bucket, 'damaged', Buffer.from('abc'), {});
    expect(await downloadGridFsFile(damaged.bucket, kept, 3)).toBeNull();
  });

  it('deletes a file, and takes one already gone as deleted', async () => {
    const { bucket, files } = memoryBucket();
    const id = await uploadGridFsFile(bucket, 'gone', Buffer.from('x'), {});
    await deleteGridFsFile(bucket, id);
    expect(files.size).toBe(0);
    await expect(deleteGridFsFile(bucket, id)).resolves.toBeUndefined();
  });
});
