import { Agent, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { openAnchorDatabase } from './anchor-sqlite-file';
import { stopOnSigterm } from './stop-signals';

/**
 * A6: the irreducible work of a submission delivered to a webhook (S6). An A1-style receive
 * (express, the same JSON body parse) of `POST /device/forms/<form>/submissions`, one SQLite
 * write of the submission, the 201 answer, then a node:http POST (keep-alive, 8 sockets: as
 * many as the delivery service sends to one destination at once) of the body S6 delivered,
 * its tag answer the submission's, to the same receiver (ANCHOR_RECEIVER_URI). No auth, no
 * signature, no schedule. IPC: reports `{ready, port}`; takes `{deliveryBody: <text>}` (what
 * S6 delivered, from its warm-up), answered `{primed: true}`.
 */
const tagQuestion = process.env.BENCH_TAG_QUESTION ?? 'customer_name';
const receiver = new URL(process.env.ANCHOR_RECEIVER_URI!);
const agent = new Agent({ keepAlive: true, maxSockets: 8 });

const db = openAnchorDatabase('a6', `
  CREATE TABLE submissions (id INTEGER PRIMARY KEY, form_id TEXT NOT NULL, answers TEXT NOT NULL, received_at TEXT NOT NULL);
`);
const insertSubmission = db.prepare('INSERT INTO submissions (form_id, answers, received_at) VALUES (?, ?, ?)');

let template: { answers: Record<string, { value: unknown }> } | null = null;
process.on('message', (message: { deliveryBody?: string }) => {
  if (message.deliveryBody === undefined) return;
  template = JSON.parse(message.deliveryBody) as typeof template;
  process.send?.({ primed: true });
});

const headers = {
  'content-type': 'application/json',
  'user-agent': 'Formcast-Webhooks/1.0',
  'webhook-id': `msg_${'0'.repeat(32)}`,
  'webhook-signature': `v1,${'A'.repeat(44)}`,
};

function deliver(tag: unknown): void {
  if (!template) return;
  template.answers[tagQuestion] = { value: tag };
  const body = JSON.stringify(template);
  const req = request(
    {
      host: receiver.hostname,
      port: receiver.port,
      path: receiver.pathname,
      method: 'POST',
      agent,
      headers: { ...headers, 'webhook-timestamp': String(Math.floor(Date.now() / 1000)), 'content-length': Buffer.byteLength(body) },
    },
    (res) => res.resume(),
  );
  req.once('error', (error) => process.stderr.write(`A6: a post failed: ${String(error)}\n`));
  req.end(body);
}

const app = express();
app.disable('x-powered-by');
app.set('etag', false);
app.use(express.json({ limit: '1mb' }));
app.post('/device/forms/:form/submissions', (req, res) => {
  const body = req.body as { answers: Record<string, unknown> };
  const id = Number(insertSubmission.run(String(req.params.form), JSON.stringify(body.answers), new Date().toISOString()).lastInsertRowid);
  res.status(201).json({ id });
  deliver(body.answers[tagQuestion]);
});

const server = app.listen(0, '127.0.0.1', () => {
  process.send?.({ ready: true, port: (server.address() as AddressInfo).port });
});
stopOnSigterm((closed) => {
  agent.destroy();
  server.close(closed);
});
