import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Arrivals } from './arrivals';
import { stopOnSigterm } from './stop-signals';

/**
 * S6's receiver, in a process of its own (its work is not the bench driver's): answers 200
 * to every POST once its body has come, and notes when the first delivery of each tag came,
 * in epoch ms to the microsecond (`performance`, as the bench notes when it sent). The tag is
 * the answer to the question `BENCH_TAG_QUESTION` in the JSON delivery body.
 * IPC: reports `{ready, uri}`; answers as Arrivals says (count, arrivals, sample, clear).
 */
const tagQuestion = process.env.BENCH_TAG_QUESTION ?? 'customer_name';
const arrivals = new Arrivals();

const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    const at = performance.timeOrigin + performance.now();
    const text = Buffer.concat(chunks).toString('utf8');
    try {
      const tag = String((JSON.parse(text) as { answers: Record<string, { value: unknown }> }).answers[tagQuestion]?.value);
      arrivals.note(tag, at, () => text);
      res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
    } catch {
      res.writeHead(400, { 'content-type': 'text/plain' }).end('not a JSON delivery');
    }
  });
});

arrivals.answerOverIpc();
stopOnSigterm((closed) => {
  server.closeAllConnections();
  server.close(closed);
});

server.listen(0, '127.0.0.1', () => {
  process.send?.({ ready: true, uri: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook` });
});
