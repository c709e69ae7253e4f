import type { Writable } from 'node:stream';
import { isFunction, type AmqplibPatch } from './amqplib-patch';
import { frameEndOctet, frameHeaderBytes, frameOverhead, frameTypeBody } from './amqp-frames';

const frameEnd = Buffer.from([frameEndOctet]);

/**
 * One body frame as one chunk of its channel's buffer: its header, a subarray of the
 * content and the end octet. amqplib's Mux takes one chunk from each busy channel in turn,
 * so the three queued apart were interleaved with another channel's frames whenever two
 * channels of a connection had something queued (a large reply while events were being
 * published: the broker closed the connection with FRAME_ERROR). The socket's write,
 * patched below, writes the three in order.
 */
export class BodyFrameParts {
  constructor(
    readonly header: Buffer,
    readonly body: Buffer,
  ) {}
}

type Write = (chunk: unknown, ...rest: unknown[]) => boolean;

interface AmqplibSendingConnection {
  sendContent: (channel: number, body: Buffer) => boolean;
  /** Indexed by channel number; channel 0, the connection's own, is there from the start. */
  channels: Array<{ buffer: Writable } | null>;
  frameMax: number;
  /** Set on every write; the heartbeat sends one only on a connection that wrote nothing. */
  sentSinceLastCheck: boolean;
  /** The socket; the Mux (`muxer.out`) writes every channel's chunks to it. */
  stream: { write: Write };
  muxer: { out: unknown };
}

/**
 * Makes the connection send a message's content as body frames that point into it.
 *
 * amqplib's `sendContent` copies every frame-sized slice of the content into a frame of its
 * own (`makeBodyFrame`) and queues them all at once: a process sending a 10 MB attachment
 * held it twice until the socket had written it (issue 7, S4: the gateway grew by 2 to 4
 * times the uploaded file). Here each body frame goes out as its 7-byte header, a subarray
 * of the content and the frame-end octet, queued together as one chunk (`BodyFrameParts`)
 * and written by the socket (writev) as they are. Frames, their order and the channel's
 * backpressure are amqplib's own.
 *
 * Reaches into amqplib (`connection.sendContent`, `.channels[n].buffer`, `.frameMax`,
 * `.sentSinceLastCheck`, `.stream.write`, `.muxer.out`).
 */
export const contentFramesInPlace: AmqplibPatch<AmqplibSendingConnection> = {
  name: 'content-frames-in-place',
  requirements: (connection) => [
    [isFunction(connection.sendContent), '`connection.sendContent` is not a function'],
    [
      Array.isArray(connection.channels) && isFunction((connection.channels[0] as { buffer?: Writable } | null)?.buffer?.write),
      '`connection.channels` is not an array of `{ buffer }` with a writable buffer for channel 0',
    ],
    [typeof connection.frameMax === 'number', '`connection.frameMax` is not a number'],
    [typeof connection.sentSinceLastCheck === 'boolean', '`connection.sentSinceLastCheck` is not a boolean'],
    [isFunction((connection.stream as { write?: unknown } | undefined)?.write), '`connection.stream` has no write()'],
    [(connection.muxer as { out?: unknown } | undefined)?.out === connection.stream, '`connection.muxer.out` is not `connection.stream`'],
  ],
  apply: (connection) => {
    const socket = connection.stream;
    const write = socket.write;
    socket.write = function (this: unknown, chunk: unknown, ...rest: unknown[]): boolean {
      if (!(chunk instanceof BodyFrameParts)) return write.call(this, chunk, ...rest);
      write.call(this, chunk.header);
      write.call(this, chunk.body);
      return write.call(this, frameEnd);
    };
    connection.sendContent = (channel: number, body: Buffer): boolean => {
      if (!Buffer.isBuffer(body)) throw new TypeError(`Expected buffer; got ${typeof body}`);
      const buffer = connection.channels[channel]!.buffer;
      const maxBody = connection.frameMax - frameOverhead;
      if (!(maxBody > 0)) throw new Error(`Cannot send content: frameMax ${connection.frameMax} leaves no room for a body frame`);
      let writable = true;
      for (let offset = 0; offset < body.length; offset += maxBody) {
        const slice = body.subarray(offset, Math.min(offset + maxBody, body.length));
        const header = Buffer.allocUnsafe(frameHeaderBytes);
        header.writeUInt8(frameTypeBody, 0);
        header.writeUInt16BE(channel, 1);
        header.writeUInt32BE(slice.length, 3);
        writable = buffer.write(new BodyFrameParts(header, slice));
      }
      connection.sentSinceLastCheck = true;
      return writable;
    };
  },
};
