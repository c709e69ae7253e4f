import { dirname, join } from 'node:path';
import type { Readable } from 'node:stream';
import { isFunction, type AmqplibPatch } from './amqplib-patch';
import { frameEndOctet, frameHeaderBytes, frameTypeBody, frameTypeHeader } from './amqp-frames';

/** An AMQP frame as amqplib's `decodeFrame` takes it. */
export interface RawFrame {
  type: number;
  channel: number;
  size: number;
  payload: Buffer;
}

type DecodeFrame = (frame: RawFrame) => unknown;

/**
 * Reads AMQP frames from a stream of chunks, and hands a message's content over as one body
 * frame holding all of it.
 *
 * amqplib concatenates what it has not parsed yet with every chunk read, leaves each body
 * frame's bytes inside those buffers, and concatenates the frames of a message at the end:
 * receiving a 10 MB message grew a process by 46 MB (issue 7, S4). Here each chunk is read
 * once, a header frame announces the content's size, and the body frames that follow on its
 * channel are copied into one buffer of that size, given to amqplib once full. A single body
 * frame is what amqplib takes as the content itself, without copying: the process grows by
 * about the message's size.
 *
 * Method, header and heartbeat frames go through unchanged and in order; a channel's content
 * is delivered where its last body frame arrived, and no other frame of that channel can come
 * between its body frames (AMQP 0-9-1, 4.2.6).
 */
export class ContentAssemblingReader {
  private readonly chunks: Buffer[] = [];
  /** Bytes of `chunks[0]` already read. */
  private offset = 0;
  private buffered = 0;
  private readonly contents = new Map<number, { body: Buffer; filled: number }>();

  constructor(
    private readonly decodeFrame: DecodeFrame,
    private readonly maxFrameSize: () => number,
    leftover?: Buffer,
    /** Called on every chunk read: amqplib's heartbeat check counts them. */
    private readonly onRead: () => void = () => undefined,
  ) {
    if (leftover && leftover.length > 0) this.push(leftover);
  }

  /** The next decoded frame, or false when `stream` has no complete one yet (as amqplib's `recvFrame`). */
  next(stream: Readable): unknown {
    for (;;) {
      const frame = this.readFrame();
      if (frame === null) {
        const incoming = stream.read() as Buffer | null;
        if (incoming === null) return false;
        this.onRead();
        this.push(incoming);
        continue;
      }
      const decoded = this.accept(frame);
      if (decoded !== undefined) return decoded;
    }
  }

  /** The frame decoded as amqplib would; undefined for a body frame kept for its content. */
  private accept({ type, channel, size, parts }: FrameParts): unknown {
    const content = type === frameTypeBody ? this.contents.get(channel) : undefined;
    if (content) {
      if (content.filled + size > content.body.length) {
        throw new Error(`Too much content sent on channel ${channel}: more than the ${content.body.length} bytes announced`);
      }
      for (const part of parts) content.filled += part.copy(content.body, content.filled);
      if (content.filled < content.body.length) return undefined;
      this.contents.delete(channel);
      return this.decodeFrame({ type, channel, size: content.body.length, payload: content.body });
    }
    const payload = parts.length === 1 ? parts[0]! : Buffer.concat(parts, size);
    if (type === frameTypeHeader && payload.length >= 12) {
      // Zero-length content has no body frame. The size is the sender's word, bounded by the
      // broker's max_message_size.
      const contentSize = Number(payload.readBigUInt64BE(4));
      if (contentSize > 0) this.contents.set(channel, { body: Buffer.allocUnsafe(contentSize), filled: 0 });
    }
    return this.decodeFrame({ type, channel, size, payload });
  }

  private push(chunk: Buffer): void {
    this.chunks.push(chunk);
    this.buffered += chunk.length;
  }

  /** Takes the next complete frame off the chunks (its payload as views of them), or null. */
  private readFrame(): FrameParts | null {
    if (this.buffered < frameHeaderBytes) return null;
    const header = this.peek(frameHeaderBytes);
    const type = header.readUInt8(0);
    const channel = header.readUInt16BE(1);
    const size = header.readUInt32BE(3);
    const max = this.maxFrameSize();
    if (max > 0 && size > max) throw new Error(`Frame size ${size} exceeds maxFrameSize ${max}`);
    if (this.buffered < frameHeaderBytes + size + 1) return null;
    this.take(frameHeaderBytes);
    const parts = this.take(size);
    if (this.take(1)[0]!.readUInt8(0) !== frameEndOctet) throw new Error('Invalid frame');
    return { type, channel, size, parts };
  }

  /** The next `n` bytes without taking them (copied only when they span chunks). */
  private peek(n: number): Buffer {
    const first = this.chunks[0]!;
    if (first.length - this.offset >= n) return first.subarray(this.offset, this.offset + n);
    const bytes = Buffer.allocUnsafe(n);
    let filled = 0;
    for (let i = 0, from = this.offset; filled < n; i++, from = 0) {
      const chunk = this.chunks[i]!;
      filled += chunk.copy(bytes, filled, from, Math.min(chunk.length, from + n - filled));
    }
    return bytes;
  }

  /** The next `n` bytes as views of the chunks they lie in, taken off. */
  private take(n: number): Buffer[] {
    const parts: Buffer[] = [];
    let left = n;
    this.buffered -= n;
    while (left > 0) {
      const first = this.chunks[0]!;
      const count = Math.min(left, first.length - this.offset);
      parts.push(first.subarray(this.offset, this.offset + count));
      left -= count;
      this.offset += count;
      if (this.offset === first.length) {
        this.chunks.shift();
        this.offset = 0;
      }
    }
    return parts;
  }
}

interface FrameParts {
  type: number;
  channel: number;
  size: number;
  /** The payload, as views of the chunks it came in. */
  parts: Buffer[];
}

interface AmqplibConnection {
  stream: Readable;
  rest: Buffer;
  maxFrameSize: number;
  recvFrame: () => unknown;
  /** Set on every read; the heartbeat gives up on a server it has not heard from in two beats. */
  recvSinceLastCheck: boolean;
}

/**
 * Makes the connection read its frames with a ContentAssemblingReader. Reaches into amqplib
 * (`connection.recvFrame`, `.stream`, `.rest`, `.maxFrameSize`, `.recvSinceLastCheck`, and
 * `decodeFrame` from `amqplib/lib/frame.js`). Apply it right after the connection opened,
 * before any channel receives content.
 */
export const contentAssembly: AmqplibPatch<AmqplibConnection> = {
  name: 'content-assembly',
  requirements: (connection) => [
    [isFunction(connection.recvFrame), '`connection.recvFrame` is not a function'],
    [isFunction((connection.stream as Readable | undefined)?.read), '`connection.stream` is not a readable stream'],
    [Buffer.isBuffer(connection.rest), '`connection.rest` is not a Buffer'],
    [typeof connection.maxFrameSize === 'number', '`connection.maxFrameSize` is not a number'],
    [typeof connection.recvSinceLastCheck === 'boolean', '`connection.recvSinceLastCheck` is not a boolean'],
    [amqplibDecodeFrame() !== undefined, '`amqplib/lib/frame.js` exports no `decodeFrame` function'],
  ],
  apply: (connection) => {
    const stream = connection.stream;
    const reader = new ContentAssemblingReader(amqplibDecodeFrame()!, () => connection.maxFrameSize, connection.rest, () => {
      connection.recvSinceLastCheck = true;
    });
    connection.rest = Buffer.alloc(0);
    connection.recvFrame = () => reader.next(stream);
  },
};

function amqplibDecodeFrame(): DecodeFrame | undefined {
  try {
    // `amqplib/lib/frame` is not among the package's exports: required by its path.
    const frame = require(join(dirname(require.resolve('amqplib')), 'lib', 'frame.js')) as { decodeFrame?: unknown };
    return isFunction(frame.decodeFrame) ? (frame.decodeFrame as DecodeFrame) : undefined;
  } catch {
    return undefined;
  }
}
