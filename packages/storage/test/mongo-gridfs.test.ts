import { Writable } from 'node:stream';
import { endWritable } from '../src';

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
