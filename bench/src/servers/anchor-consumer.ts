import { connect } from 'amqplib';
import { amqpSocketOptions } from './amqp-socket-options';

/**
 * A2's trivial consumer: takes each request from its queue and answers at once through the
 * direct reply-to the request names, with the shape of the push answer. Prefetch 32, as the
 * bus's consumers.
 */
const namespace = 'http://formcast.local/xforms/00000000-0000-4000-8000-000000000000';

async function main(): Promise<void> {
  const queue = process.env.ANCHOR_QUEUE!;
  const connection = await connect(process.env.AMQP_URL!, amqpSocketOptions);
  const channel = await connection.createChannel();
  await channel.assertQueue(queue, { durable: false });
  await channel.prefetch(32);
  let nextId = 1;
  await channel.consume(queue, (message) => {
    if (!message) return;
    const request = JSON.parse(message.content.toString('utf8')) as { body: { form_name?: string } };
    const reply = { ok: true, value: { id: nextId++, namespace, name: request.body.form_name } };
    channel.sendToQueue(String(message.properties.replyTo), Buffer.from(JSON.stringify(reply)), {
      correlationId: message.properties.correlationId,
      contentType: 'application/json',
    });
    channel.ack(message);
  });
  process.once('SIGTERM', () => void connection.close().finally(() => process.exit(0)));
  process.send?.({ ready: true });
}

// Orphaned (the bench process died): stop as on SIGTERM.
process.once('disconnect', () => process.kill(process.pid, 'SIGTERM'));

main().catch((error: unknown) => {
  process.stderr.write(`anchor consumer failed: ${String(error)}\n`);
  process.exit(1);
});
