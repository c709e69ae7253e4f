import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface HealthServer {
  /** The port it listens on (the one asked for, or the free one picked for 0). */
  port: number;
  close(): Promise<void>;
}

export interface HealthServerOptions {
  /** The port to listen on; 0 picks a free one. */
  port: number;
  /** Resolves when the process should be given work; rejects with the reason otherwise. */
  ready: () => Promise<void>;
  /** How long a readiness check may take before it counts as not ready (default 2 s). */
  readyTimeoutMs?: number;
}

/**
 * `/healthz` (liveness: the process answers) and `/readyz` (readiness: `ready()` resolves
 * in time) over plain node:http, for processes that serve no HTTP of their own.
 */
export async function startHealthServer({ port, ready, readyTimeoutMs = 2000 }: HealthServerOptions): Promise<HealthServer> {
  const server = createServer((req, res) => {
    void answer(req, res, () => withTimeout(ready(), readyTimeoutMs));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

async function answer(req: IncomingMessage, res: ServerResponse, checkReady: () => Promise<void>): Promise<void> {
  const path = new URL(req.url ?? '/', 'http://health').pathname;
  if (path !== '/healthz' && path !== '/readyz') return send(res, 404, { status: 'not found' });
  if (req.method !== 'GET' && req.method !== 'HEAD') return send(res, 405, { status: 'method not allowed' }, { allow: 'GET, HEAD' });
  if (path === '/healthz') return send(res, 200, { status: 'ok' });
  try {
    await checkReady();
    send(res, 200, { status: 'ready' });
  } catch (error) {
    send(res, 503, { status: 'not ready', reason: error instanceof Error ? error.message : String(error) });
  }
}

function send(res: ServerResponse, status: number, body: object, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', ...headers });
  res.end(JSON.stringify(body));
}

function withTimeout(check: Promise<void>, timeoutMs: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`readiness check took over ${timeoutMs} ms`)), timeoutMs);
  });
  return Promise.race([check, timeout]).finally(() => clearTimeout(timer));
}
