import { randomBytes } from 'node:crypto';
import type { Writable } from 'node:stream';
import { connect, type ChannelModel } from 'amqplib';
import { applyPatch } from '../src/amqp/amqplib-patch';
import { BodyFrameParts, contentFramesInPlace } from '../src/amqp/content-frames-in-place';
import { brokerUrl, describeWithBroker as describeWithBrokerFor } from './broker-admin';
import { uniqueName } from '@formcast/testing';

const describeWithBroker = describeWithBrokerFor('contentFramesInPlace');

interface Internals {
  connection: { frameMax: number; channels: Array<{ buffer: Writable } | null> };
}

describeWithBroker('contentFramesInPlace over RabbitMQ', () => {
  const opened: ChannelModel[] = [];
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((model) => model.close()));
  });
  async function open(): Promise<ChannelModel> {
    const model = await connect(brokerUrl);
    opened.push(model);
    return model;
  }

  it('delivers content of every size intact to a plain amqplib consumer', async () => {
    const [sender, receiver] = await Promise.all([open(), open()]);
    expect(applyPatch(contentFramesInPlace, sender)).toEqual({ patch: 'content-frames-in-place', applied: true });
    // In place, not amqplib's own: an amqplib that no longer allows it shows here.
    expect(Object.prototype.hasOwnProperty.call((sender as unknown as Internals).connection, 'sendContent')).toBe(true);
    const maxBody = (sender as unknown as Internals).connection.frameMax - 8;
    const queue = uniqueName('content-in-place');
    const [sending, receiving] = await Promise.all([sender.createChannel(), receiver.createChannel()]);
    await sending.assertQueue(queue, { durable: false, autoDelete: true });
    const sizes = [0, 1, maxBody - 1, maxBody, maxBody + 1, 2 * maxBody, 1_000_000, 3 * 1024 * 1024 + 17];
    const sent = sizes.map((size) => randomBytes(size));
    const received: Buffer[] = [];
    const done = new Promise<void>((resolve) => {
      void receiving.consume(queue, (message) => {
        if (!message) return;
        received.push(message.content);
        receiving.ack(message);
        if (received.length === sent.length) resolve();
      });
    });
    for (const body of sent) sending.sendToQueue(queue, body);
    await done;
    expect(received.map((body) => body.length)).toEqual(sizes);
    received.forEach((body, i) => expect(body.equals(sent[i]!)).toBe(true));
  });

  it('queues body frames that point into the content instead of copies of it', async () => {
    const model = await open();
    applyPatch(contentFramesInPlace, model);
    const channel = await model.createChannel();
    const queue = uniqueName('content-in-place');
    await channel.assertQueue(queue, { durable: false, autoDelete: true });
    const { connection } = model as unknown as Internals;
    const channelBuffer = connection.channels[(channel as unknown as { ch: number }).ch]!.buffer;
    const written: Buffer[] = [];
    const write = channelBuffer.write.bind(channelBuffer);
    channelBuffer.write = ((chunk: Buffer | BodyFrameParts, ...rest: unknown[]) => {
      written.push(...(chunk instanceof BodyFrameParts ? [chunk.header, chunk.body] : [chunk]));
      return (write as (...args: unknown[]) => boolean)(chunk, ...rest);
    }) as Writable['write'];
    const content = randomBytes(5 * connection.frameMax);

    channel.sendToQueue(queue, content);

    const sharing = written.filter((chunk) => chunk.buffer === content.buffer);
    expect(sharing.length).toBeGreaterThanOrEqual(5);
    expect(sharing.reduce((sum, chunk) => sum + chunk.length, 0)).toBe(content.length);
    // Nothing else written holds a copy: only frame headers, ends and the method and header frames.
    expect(written.filter((chunk) => chunk.buffer !== content.buffer).every((chunk) => chunk.length < 1024)).toBe(true);
    // Never consumed, so never auto-deleted.
    await channel.deleteQueue(queue);
  });
});
