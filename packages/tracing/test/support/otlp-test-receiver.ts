import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface OtlpExport {
  contentType: string;
  body: Buffer;
}

/** A local OTLP/HTTP endpoint keeping every export it receives, answering 200 with an empty response. */
export class OtlpTestReceiver {
  readonly exports: OtlpExport[] = [];

  private constructor(private readonly server: Server) {}

  static async start(): Promise<OtlpTestReceiver> {
    const server = createServer();
    const receiver = new OtlpTestReceiver(server);
    server.on('request', (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const contentType = req.headers['content-type'] ?? '';
        receiver.exports.push({ contentType, body: Buffer.concat(chunks) });
        res.writeHead(200, { 'content-type': contentType }).end(contentType.includes('json') ? '{}' : '');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return receiver;
  }

  get endpoint(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** Every span of the JSON exports received so far, with its resource's attributes. */
  jsonSpans(): Array<{ name: string; traceId: string; spanId: string; parentSpanId?: string; kind: number; attributes: Array<{ key: string }>; resource: Record<string, unknown> }> {
    return this.exports.flatMap(({ body }) => {
      const request = JSON.parse(body.toString('utf8'));
      return request.resourceSpans.flatMap((resourceSpans: any) => {
        const resource = Object.fromEntries(resourceSpans.resource.attributes.map((a: any) => [a.key, Object.values(a.value)[0]]));
        return resourceSpans.scopeSpans.flatMap((scopeSpans: any) => scopeSpans.spans.map((span: any) => ({ ...span, resource })));
      });
    });
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
