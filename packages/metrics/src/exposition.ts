import type { IncomingMessage, ServerResponse } from 'node:http';
import { serveOnPort, type PortServer } from './port-server';
import { metricsRegistry, metricsOn } from './registry';

/** The Prometheus text exposition of every metric of this process. */
export async function renderMetrics(): Promise<{ contentType: string; body: string }> {
  return { contentType: metricsRegistry.contentType, body: await metricsRegistry.metrics() };
}

/** Answers a `/metrics` request with node:http: the exposition, or 404 when metrics are off. */
export async function answerMetrics(req: IncomingMessage, res: ServerResponse): Promise<void> {
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.writeHead(405, { allow: 'GET, HEAD', 'content-type': 'text/plain; charset=utf-8' }).end('method not allowed\n');
    return;
  }
  if (!metricsOn()) {
    res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('metrics are off (METRICS_ENABLED=false)\n');
    return;
  }
  try {
    const { contentType, body } = await renderMetrics();
    res.writeHead(200, { 'content-type': contentType, 'cache-control': 'no-store' }).end(req.method === 'HEAD' ? undefined : body);
  } catch {
    res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' }).end('could not collect the metrics\n');
  }
}

export type MetricsServer = PortServer;

/** `/metrics` alone on a port of its own (the gateway's METRICS_PORT: not exposed by its public Service). */
export function startMetricsServer(port: number): Promise<MetricsServer> {
  return serveOnPort(port, (req, res) => {
    if (new URL(req.url ?? '/', 'http://metrics').pathname !== '/metrics') {
      res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('not found\n');
      return;
    }
    void answerMetrics(req, res);
  });
}
