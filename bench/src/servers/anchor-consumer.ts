import { connect, type ConsumeMessage } from 'amqplib';
import { amqpSocketOptions } from './amqp-socket-options';

/**
 * A2's trivial consumer: takes each request from its queue and answers at once through the
 * direct reply-to the request names, with the shape of the push answer. Prefetch 32, as the
 * bus's consumers.
 *
 * A5 (ANCHOR_EVENTS=1): the same, plus the push's event: for each request one persistent
 * message published on a confirm channel to a durable queue (`<queue>.events`), and consumed
 * from it on a channel of its own with a manual ack (prefetch 32), as the notifier takes
 * push's events.
 */
const namespace = 'http://formcast.local/xforms/00000000-0000-4000-8000-000000000000';
const withEvents = process.env.ANCHOR_EVENTS === '1';

async function main(): Promise<void> {
  const queue = process.env.ANCHOR_QUEUE!;
  const eventQueue = `${queue}.events`;
  const connection = await connect(process.env.AMQP_URL!, amqpSocketOptions);
  const channel = await connection.createChannel();
  await channel.assertQueue(queue, { durable: false });
  await channel.prefetch(32);
  const publishEvent = withEvents ? await eventPublisher(connection, eventQueue) : () => undefined;
  let nextId = 1;
  await channel.consume(queue, (message) => {
    if (!message) return;
    const request = JSON.parse(message.content.toString('utf8')) as { device: string; body: { form_name?: string } };
    const id = nextId++;
    const reply = { ok: true, value: { id, namespace, name: request.body.form_name } };
    channel.sendToQueue(String(message.properties.replyTo), Buffer.from(JSON.stringify(reply)), {
      correlationId: message.properties.correlationId,
      contentType: 'application/json',
    });
    channel.ack(message);
    publishEvent({ type: 'push.oneshot.created', payload: { oneshotId: id, deviceIdentifier: request.device, name: request.body.form_name }, at: new Date().toISOString() });
  });
  process.once('SIGTERM', () => void connection.close().finally(() => process.exit(0)));
  process.send?.({ ready: true });
}

/** A5's event: published persistent and confirmed; taken on another channel, parsed, acked by hand. */
async function eventPublisher(connection: Awaited<ReturnType<typeof connect>>, eventQueue: string): Promise<(event: object) => void> {
  const confirms = await connection.createConfirmChannel();
  await confirms.assertQueue(eventQueue, { durable: true });
  const events = await connection.createChannel();
  await events.prefetch(32);
  await events.consume(eventQueue, (message: ConsumeMessage | null) => {
    if (!message) return;
    JSON.parse(message.content.toString('utf8'));
    events.ack(message);
  });
  return (event) => {
    confirms.publish('', eventQueue, Buffer.from(JSON.stringify(event)), { persistent: true, contentType: 'application/json' }, (error) => {
      if (error) process.stderr.write(`A5: an event was not confirmed: ${String(error)}\n`);
    });
  };
}

// Orphaned (the bench process died): stop as on SIGTERM.
process.once('disconnect', () => process.kill(process.pid, 'SIGTERM'));

main().catch((error: unknown) => {
  process.stderr.write(`anchor consumer failed: ${String(error)}\n`);
  process.exit(1);
});
