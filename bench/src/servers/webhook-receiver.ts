import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * S6's receiver, in a process of its own (its work is not the bench driver's): answers 200
 * to every POST once its body has come, and notes when the first delivery of each tag came,
 * in epoch ms to the microsecond (`performance`, as the bench notes when it sent). The tag is
 * the answer to the question `BENCH_TAG_QUESTION` in the JSON delivery body.
 * IPC: reports `{ready, uri}`; answers `{count: <prefix>}` with `{counted: <tags that start
 * with it>}`, `{arrivals: <prefix>}` with `{arrivals: [[tag, epoch ms], …]}` of those tags, and
 * `{sample: true}` with `{sample: <a body that came, as text>}`; `{clear: true}` forgets.
 */
const tagQuestion = process.env.BENCH_TAG_QUESTION ?? 'customer_name';
const arrivals = new Map<string, number>();
let sample: string | null = null;

const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    const at = performance.timeOrigin + performance.now();
    const text = Buffer.concat(chunks).toString('utf8');
    try {
      const tag = String((JSON.parse(text) as { answers: Record<string, { value: unknown }> }).answers[tagQuestion]?.value);
      if (!arrivals.has(tag)) arrivals.set(tag, at);
      sample ??= text;
      res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
    } catch {
      res.writeHead(400, { 'content-type': 'text/plain' }).end('not a JSON delivery');
    }
  });
});

const tagged = (prefix: string) => [...arrivals].filter(([tag]) => tag.startsWith(prefix));

process.on('message', (message: { count?: string; arrivals?: string; sample?: boolean; clear?: boolean }) => {
  if (message.clear) {
    arrivals.clear();
    process.send?.({ cleared: true });
  }
  if (message.count !== undefined) process.send?.({ counted: tagged(message.count).length });
  if (message.arrivals !== undefined) process.send?.({ arrivals: tagged(message.arrivals) });
  if (message.sample) process.send?.({ sample });
});
process.once('SIGTERM', () => {
  server.closeAllConnections();
  server.close(() => process.exit(0));
});
// Orphaned (the bench process died): stop as on SIGTERM.
process.once('disconnect', () => process.kill(process.pid, 'SIGTERM'));

server.listen(0, '127.0.0.1', () => {
  process.send?.({ ready: true, uri: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook` });
});
