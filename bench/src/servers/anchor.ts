import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { connect, type ConsumeMessage } from 'amqplib';
import { amqpSocketOptions } from './amqp-socket-options';

/**
 * The anchors: a bare express app taking the push request shape and answering 202 with the
 * push answer's shape (A1, ANCHOR_MODE=bare), or the same app making one amqplib direct
 * reply-to round trip through RabbitMQ to a trivial consumer first (A2, ANCHOR_MODE=amqp).
 * Nothing else: no auth, no validation, no logging. Reports `{ready, port}` over IPC.
 */
const mode = process.env.ANCHOR_MODE ?? 'bare';
const namespace = 'http://formcast.local/xforms/00000000-0000-4000-8000-000000000000';

async function main(): Promise<void> {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.use(express.json({ limit: '1mb' }));

  if (mode === 'bare') {
    let nextId = 1;
    app.post('/clients/:device/oneshots{.:format}', (req, res) => {
      res.status(202).json({ oneshot_list: [{ id: nextId++, namespace, name: req.body.form_name }] });
    });
  } else {
    const queue = process.env.ANCHOR_QUEUE!;
    const connection = await connect(process.env.AMQP_URL!, amqpSocketOptions);
    const channel = await connection.createChannel();
    const waiting = new Map<string, (reply: { ok: boolean; value: unknown }) => void>();
    await channel.consume(
      'amq.rabbitmq.reply-to',
      (message: ConsumeMessage | null) => {
        if (!message) return;
        const settle = waiting.get(String(message.properties.correlationId));
        waiting.delete(String(message.properties.correlationId));
        settle?.(JSON.parse(message.content.toString('utf8')));
      },
      { noAck: true },
    );
    app.post('/clients/:device/oneshots{.:format}', async (req, res) => {
      const correlationId = randomUUID();
      const reply = await new Promise<{ ok: boolean; value: unknown } | null>((resolve) => {
        const timer = setTimeout(() => {
          waiting.delete(correlationId);
          resolve(null);
        }, 10_000);
        waiting.set(correlationId, (r) => {
          clearTimeout(timer);
          resolve(r);
        });
        channel.publish('', queue, Buffer.from(JSON.stringify({ device: req.params.device, body: req.body })), {
          correlationId,
          replyTo: 'amq.rabbitmq.reply-to',
          contentType: 'application/json',
          expiration: '10000',
        });
      });
      if (!reply) res.status(504).end();
      else res.status(202).json({ oneshot_list: [reply.value] });
    });
    process.once('SIGTERM', () => void connection.close().finally(() => process.exit(0)));
  }

  const server = app.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => {
    process.send?.({ ready: true, port: (server.address() as AddressInfo).port });
  });
  if (mode === 'bare') process.once('SIGTERM', () => server.close(() => process.exit(0)));
}

// Orphaned (the bench process died): stop as on SIGTERM.
process.once('disconnect', () => process.kill(process.pid, 'SIGTERM'));

main().catch((error: unknown) => {
  process.stderr.write(`anchor failed: ${String(error)}\n`);
  process.exit(1);
});
