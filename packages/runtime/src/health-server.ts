import type { IncomingMessage, ServerResponse } from 'node:http';
import { answerMetrics, serveOnPort, type PortServer } from '@formcast/metrics';

export type HealthServer = PortServer;

export interface HealthServerOptions {
  /** The port to listen on; 0 picks a free one. */
  port: number;
  /** Resolves when the process should be given work; rejects with the reason otherwise. */
  ready: () => Promise<void>;
  /** How long a readiness check may take before it counts as not ready (default 2 s). */
  readyTimeoutMs?: number;
}

/**
 * `/healthz` (liveness: the process answers), `/readyz` (readiness: `ready()` resolves
 * in time) and `/metrics` (Prometheus; 404 while METRICS_ENABLED is false) over plain
 * node:http, for processes that serve no HTTP of their own.
 */
export function startHealthServer({ port, ready, readyTimeoutMs = 2000 }: HealthServerOptions): Promise<HealthServer> {
  return serveOnPort(port, (req, res) => {
    void answer(req, res, () => withTimeout(ready(), readyTimeoutMs));
  });
}

async function answer(req: IncomingMessage, res: ServerResponse, checkReady: () => Promise<void>): Promise<void> {
  const path = new URL(req.url ?? '/', 'http://health').pathname;
  if (path === '/metrics') return answerMetrics(req, res);
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
