import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';
import { countOtlpSpans } from './otlp-span-count';
import { stopOnSigterm } from './stop-signals';

/**
 * S1T/S2T's trace collector, in a process of its own (its work is not the bench driver's): an
 * OTLP/HTTP receiver taking `POST <base>/v1/traces` (protobuf or JSON, gzip or not), answering
 * 200 with an empty ExportTraceServiceResponse in the request's encoding, and counting, per
 * base path (one per system under test: OTEL_EXPORTER_OTLP_ENDPOINT=<origin>/<system>),
 * requests, bytes and the spans in them. Anything else is 404; a body it cannot read, 400
 * (counted as refused). IPC: reports `{ready, origin}`; answers `{count: true}` with
 * `{counts: {<base>: {requests, bytes, spans, refused}}}`.
 */
interface Received {
  requests: number;
  bytes: number;
  spans: number;
  refused: number;
}

const counts: Record<string, Received> = {};

const server = createServer((req, res) => {
  const path = new URL(req.url ?? '/', 'http://receiver').pathname;
  if (req.method !== 'POST' || !path.endsWith('/v1/traces')) {
    res.writeHead(404, { 'content-type': 'text/plain' }).end('not an OTLP traces endpoint');
    return;
  }
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    const sent = Buffer.concat(chunks);
    const contentType = req.headers['content-type'] ?? 'application/x-protobuf';
    const base = path.slice(0, -'/v1/traces'.length) || '/';
    const received = (counts[base] ??= { requests: 0, bytes: 0, spans: 0, refused: 0 });
    try {
      const body = req.headers['content-encoding'] === 'gzip' ? gunzipSync(sent) : sent;
      const spans = countOtlpSpans(body, contentType);
      received.requests += 1;
      received.bytes += sent.length;
      received.spans += spans;
      // An empty ExportTraceServiceResponse: no partial_success, everything accepted.
      if (contentType.includes('json')) res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      else res.writeHead(200, { 'content-type': 'application/x-protobuf' }).end();
    } catch (error) {
      received.refused += 1;
      res.writeHead(400, { 'content-type': 'text/plain' }).end(`unreadable OTLP body: ${String(error)}`);
    }
  });
});

process.on('message', (message: { count?: boolean }) => {
  if (message.count) process.send?.({ counts });
});
stopOnSigterm((closed) => {
  server.closeAllConnections();
  server.close(closed);
});

server.listen(0, '127.0.0.1', () => {
  process.send?.({ ready: true, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` });
});
