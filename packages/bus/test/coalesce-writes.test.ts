import type { Socket } from 'node:net';
import { connect, type ChannelModel } from 'amqplib';
import { applyPatch } from '../src/amqp/amqplib-patch';
import { coalesceWrites } from '../src/amqp/coalesce-writes';
import { brokerUrl, describeWithBroker as describeWithBrokerFor } from './broker-admin';
import { uniqueName, waitFor } from '@formcast/testing';

const url = brokerUrl;
const describeWithBroker = describeWithBrokerFor('coalesceWrites');

describeWithBroker('coalesceWrites', () => {
  let model: ChannelModel;
  let observer: ChannelModel;
  beforeAll(async () => {
    observer = await connect(url);
  });
  afterAll(() => observer.close());
  afterEach(() => model.close());

  /** How many times the socket went to the kernel until the 50 messages `send` sent reached `queue` (seen on another connection). */
  async function socketWritesFor(queue: string, send: () => void): Promise<number> {
    const socket = (model as unknown as { connection: { stream: Socket } }).connection.stream;
    const internals = socket as unknown as { _write: (...args: unknown[]) => unknown; _writev: (...args: unknown[]) => unknown };
    let writes = 0;
    const [write, writev] = [internals._write, internals._writev];
    internals._write = function (...args) {
      writes += 1;
      return write.apply(this, args);
    };
    internals._writev = function (...args) {
      writes += 1;
      return writev.apply(this, args);
    };
    const looking = await observer.createChannel();
    try {
      send();
      await waitFor(async () => (await looking.checkQueue(queue)).messageCount === 50, { description: 'the 50 messages' });
    } finally {
      await looking.close();
    }
    return writes;
  }

  it('sends what one turn wrote in one go, and every message still arrives', async () => {
    model = await connect(url, { noDelay: true });
    expect(applyPatch(coalesceWrites, model)).toEqual({ patch: 'coalesce-writes', applied: true });
    // Twice changes nothing (the writes below would show a second layer of corking).
    expect(applyPatch(coalesceWrites, model)).toEqual({ patch: 'coalesce-writes', applied: true });
    const channel = await model.createChannel();
    const queue = uniqueName('coalesce');
    await channel.assertQueue(queue, { autoDelete: false, durable: false });
    try {
      const writes = await socketWritesFor(queue, () => {
        for (let i = 0; i < 50; i++) channel.sendToQueue(queue, Buffer.from(`message ${i}`));
      });
      expect(writes).toBeLessThanOrEqual(3);
      const first = await channel.get(queue, { noAck: true });
      expect(first && first.content.toString()).toBe('message 0');
    } finally {
      await channel.deleteQueue(queue);
    }
  });

  it('without it, amqplib writes frame by frame', async () => {
    model = await connect(url, { noDelay: true });
    const channel = await model.createChannel();
    const queue = uniqueName('uncoalesced');
    await channel.assertQueue(queue, { autoDelete: false, durable: false });
    try {
      const writes = await socketWritesFor(queue, () => {
        for (let i = 0; i < 50; i++) channel.sendToQueue(queue, Buffer.from(`message ${i}`));
      });
      expect(writes).toBeGreaterThan(10);
    } finally {
      await channel.deleteQueue(queue);
    }
  });
});
