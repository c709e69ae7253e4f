import { randomBytes } from 'node:crypto';
import { PassThrough } from 'node:stream';
import { connect, type ChannelModel } from 'amqplib';
import { applyPatch } from '../src/amqp/amqplib-patch';
import { contentAssembly, ContentAssemblingReader, type RawFrame } from '../src/amqp/content-assembly';
import { brokerUrl, describeWithBroker as describeWithBrokerFor } from './broker-admin';
import { uniqueName, waitFor } from '@formcast/testing';

const METHOD = 1;
const HEADER = 2;
const BODY = 3;
const HEARTBEAT = 8;

function frame(type: number, channel: number, payload: Buffer, end = 0xce): Buffer {
  const head = Buffer.alloc(7);
  head.writeUInt8(type, 0);
  head.writeUInt16BE(channel, 1);
  head.writeUInt32BE(payload.length, 3);
  return Buffer.concat([head, payload, Buffer.from([end])]);
}

/** A content header announcing `size` bytes (class 60, no properties). */
function header(channel: number, size: number): Buffer {
  const payload = Buffer.alloc(14);
  payload.writeUInt16BE(60, 0);
  payload.writeBigUInt64BE(BigInt(size), 4);
  return frame(HEADER, channel, payload);
}

/** Every frame the reader gives for `bytes`, fed in pieces of at most `piece` bytes. */
function readAll(bytes: Buffer, piece: number, maxFrameSize = 0): RawFrame[] {
  const stream = new PassThrough();
  const reader = new ContentAssemblingReader((f) => ({ ...f, payload: Buffer.from(f.payload) }), () => maxFrameSize);
  const frames: RawFrame[] = [];
  for (let at = 0; at < bytes.length; at += piece) {
    stream.write(bytes.subarray(at, at + piece));
    for (let f = reader.next(stream); f !== false; f = reader.next(stream)) frames.push(f as RawFrame);
  }
  return frames;
}

const summary = (frames: RawFrame[]) => frames.map((f) => `${f.type}@${f.channel}:${f.payload.length}`);

describe('ContentAssemblingReader', () => {
  const bodyA = randomBytes(300);
  const bodyB = randomBytes(50);
  const wire = Buffer.concat([
    frame(METHOD, 1, Buffer.from('deliver-a')),
    header(1, 300),
    frame(BODY, 1, bodyA.subarray(0, 128)),
    frame(METHOD, 2, Buffer.from('deliver-b')),
    header(2, 50),
    frame(BODY, 1, bodyA.subarray(128, 256)),
    frame(HEARTBEAT, 0, Buffer.alloc(0)),
    frame(BODY, 2, bodyB),
    frame(BODY, 1, bodyA.subarray(256)),
    frame(METHOD, 1, Buffer.from('deliver-empty')),
    header(1, 0),
    frame(METHOD, 1, Buffer.from('after')),
  ]);

  it.each([1, 3, 7, 64, 1000, wire.length])('gives every frame in order, each content as one body frame (read %i bytes at a time)', (piece) => {
    const frames = readAll(wire, piece);
    expect(summary(frames)).toEqual([
      '1@1:9',
      '2@1:14',
      '1@2:9',
      '2@2:14',
      '8@0:0',
      '3@2:50',
      '3@1:300',
      '1@1:13',
      '2@1:14',
      '1@1:5',
    ]);
    expect(frames[5]!.payload).toEqual(bodyB);
    expect(frames[6]!.payload).toEqual(bodyA);
    expect(frames[9]!.payload.toString()).toBe('after');
  });

  it('takes over what amqplib had read but not parsed', () => {
    const stream = new PassThrough();
    const reader = new ContentAssemblingReader((f) => f, () => 0, wire.subarray(0, 20));
    stream.write(wire.subarray(20));
    expect((reader.next(stream) as RawFrame).payload.toString()).toBe('deliver-a');
  });

  it('refuses a frame without its end marker, one over the frame size, and content over the announced size', () => {
    expect(() => readAll(frame(METHOD, 1, Buffer.from('x'), 0x00), 100)).toThrow('Invalid frame');
    expect(() => readAll(frame(METHOD, 1, Buffer.alloc(200)), 1000, 100)).toThrow('Frame size 200 exceeds maxFrameSize 100');
    expect(() => readAll(Buffer.concat([header(1, 4), frame(BODY, 1, Buffer.alloc(5))]), 1000)).toThrow(/Too much content sent on channel 1/);
  });
});

const describeWithBroker = describeWithBrokerFor('contentAssembly');

describeWithBroker('contentAssembly over RabbitMQ', () => {
  let model: ChannelModel;
  afterEach(() => model.close());

  it('delivers messages of every size intact, across channels at once', async () => {
    model = await connect(brokerUrl);
    expect(applyPatch(contentAssembly, model)).toEqual({ patch: 'content-assembly', applied: true });
    // The reader is in place, not amqplib's own: an amqplib that no longer allows it shows here.
    expect(Object.prototype.hasOwnProperty.call((model as unknown as { connection: object }).connection, 'recvFrame')).toBe(true);
    const queue = uniqueName('content-assembly');
    const [sending, receivingA, receivingB] = await Promise.all([model.createChannel(), model.createChannel(), model.createChannel()]);
    await sending.assertQueue(queue, { durable: false, autoDelete: true });
    const sizes = [0, 1, 131_064, 131_065, 1_000_000, 3 * 1024 * 1024 + 17];
    const sent = sizes.map((size) => randomBytes(size));
    const received: Buffer[] = [];
    const done = new Promise<void>((resolve) => {
      for (const channel of [receivingA, receivingB]) {
        void channel.consume(queue, (message) => {
          if (!message) return;
          received.push(message.content);
          channel.ack(message);
          if (received.length === sent.length) resolve();
        });
      }
    });
    for (const body of sent) sending.sendToQueue(queue, body);
    await done;
    const key = (b: Buffer) => `${b.length}:${b.subarray(0, 16).toString('hex')}`;
    expect(received.map(key).sort()).toEqual(sent.map(key).sort());
    for (const body of received) expect(body.equals(sent.find((s) => key(s) === key(body))!)).toBe(true);
  });

  it("keeps amqplib's heartbeat check fed: on an idle connection, every check sees the server's heartbeats", async () => {
    model = await connect(`${brokerUrl}?heartbeat=1`);
    applyPatch(contentAssembly, model);
    let closed = false;
    model.on('close', () => (closed = true));
    model.on('error', () => undefined);
    // amqplib's heartbeat check reads this flag once a period (1 s here, the shortest) and
    // clears it; it gives up on a server after two periods without a read. The reader sets it.
    const connection = (model as unknown as { connection: object }).connection;
    let readSinceLastCheck = false;
    const seenByChecks: boolean[] = [];
    Object.defineProperty(connection, 'recvSinceLastCheck', {
      get: () => {
        seenByChecks.push(readSinceLastCheck);
        return readSinceLastCheck;
      },
      set: (value: boolean) => {
        readSinceLastCheck = value;
      },
    });

    await waitFor(() => seenByChecks.length >= 2, { description: 'two heartbeat checks' });

    expect(seenByChecks.slice(0, 2)).toEqual([true, true]);
    expect(closed).toBe(false);
    const channel = await model.createChannel();
    await channel.close();
  });
});
