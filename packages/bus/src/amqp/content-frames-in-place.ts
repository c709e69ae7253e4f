import type { Writable } from 'node:stream';
import type { ChannelModel } from 'amqplib';
import { frameEndOctet, frameHeaderBytes, frameOverhead, frameTypeBody } from './amqp-frames';

const frameEnd = Buffer.from([frameEndOctet]);

interface AmqplibSendingConnection {
  sendContent?: (channel: number, body: Buffer) => boolean;
  channels?: Array<{ buffer: Writable } | null>;
  frameMax?: number;
  /** Set on every write; the heartbeat sends one only on a connection that wrote nothing. */
  sentSinceLastCheck?: boolean;
}

const inPlace = new WeakSet<object>();

/**
 * Makes the connection of `model` send a message's content as body frames that point into it.
 *
 * amqplib's `sendContent` copies every frame-sized slice of the content into a frame of its
 * own (`makeBodyFrame`) and queues them all at once: a process sending a 10 MB attachment
 * held it twice until the socket had written it (issue 7, S4: the gateway grew by 2 to 4
 * times the uploaded file). Here each body frame goes out as its 7-byte header, a subarray
 * of the content and the frame-end octet, which the socket writes (writev) as they are.
 * Frames, their order and the channel's backpressure are amqplib's own.
 *
 * Reaches into amqplib (`connection.sendContent`, `.channels[n].buffer`, `.frameMax`,
 * `.sentSinceLastCheck`); when a version has none of these, nothing changes.
 */
export function sendContentInPlace(model: ChannelModel): void {
  const connection = (model as unknown as { connection?: AmqplibSendingConnection }).connection;
  if (!connection || typeof connection.sendContent !== 'function' || !Array.isArray(connection.channels) || inPlace.has(connection)) return;
  inPlace.add(connection);
  connection.sendContent = (channel: number, body: Buffer): boolean => {
    if (!Buffer.isBuffer(body)) throw new TypeError(`Expected buffer; got ${typeof body}`);
    const buffer = connection.channels![channel]!.buffer;
    const maxBody = (connection.frameMax ?? 0) - frameOverhead;
    if (!(maxBody > 0)) throw new Error(`Cannot send content: frameMax ${connection.frameMax} leaves no room for a body frame`);
    let writable = true;
    for (let offset = 0; offset < body.length; offset += maxBody) {
      const slice = body.subarray(offset, Math.min(offset + maxBody, body.length));
      const header = Buffer.allocUnsafe(frameHeaderBytes);
      header.writeUInt8(frameTypeBody, 0);
      header.writeUInt16BE(channel, 1);
      header.writeUInt32BE(slice.length, 3);
      buffer.write(header);
      buffer.write(slice);
      writable = buffer.write(frameEnd);
    }
    connection.sentSinceLastCheck = true;
    return writable;
  };
}
