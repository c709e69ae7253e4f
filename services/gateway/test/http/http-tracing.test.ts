import { request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { activeTraceContext, recordSpansInMemory, type SpansInMemory } from '@formcast/tracing';
import { traceIdMixin } from '@formcast/platform';
import pino from 'pino';
import { Writable } from 'node:stream';
import { errorHandler } from '../../src/http/error-handler';
import { useHttpTracing } from '../../src/http/http-tracing';
import { readBodyUpTo, readLimitedBody } from '../../src/http/limited-body';
import { requestContext } from '../../src/http/request-context';

/**
 * A body arrives on the socket's async context, outside the request's span: the routes after
 * a body reader must still run in it (the commands they send are its children).
 */
describe('HTTP tracing: routes after a body reader run in the request span', () => {
  let recorded: SpansInMemory;
  let server: Server;
  let origin: string;
  const seen: Array<{ route: string; traceparent: string | undefined; bodyBytes: number }> = [];
  const logLines: Array<{ msg: string; path: string; traceId?: string }> = [];

  beforeAll(async () => {
    recorded = recordSpansInMemory('http-tracing-test');
    const app = express();
    const lines = new Writable({
      write(chunk: Buffer, _encoding, done) {
        logLines.push(JSON.parse(chunk.toString()));
        done();
      },
    });
    app.use(requestContext(pino({ mixin: traceIdMixin }, lines)));
    useHttpTracing(app);
    const record = (route: string) => (req: express.Request, res: express.Response) => {
      seen.push({ route, traceparent: activeTraceContext()?.traceparent, bodyBytes: Buffer.isBuffer(req.body) ? req.body.length : -1 });
      res.status(202).end();
    };
    app.post('/large', readLimitedBody(1 << 20, (limit) => `at most ${limit} bytes`), record('large'));
    app.use(readBodyUpTo(1024));
    app.post('/small', record('small'));
    app.use(errorHandler);
    server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    await recorded.stop();
  });

  beforeEach(() => {
    seen.length = 0;
    logLines.length = 0;
    recorded.reset();
  });

  /** The body's second half is sent 50 ms after the first: it arrives in a socket event of its own, after the routes started. */
  async function post(path: string, body: string): Promise<void> {
    const status = await new Promise<number | undefined>((resolve, reject) => {
      const sending = request(`${origin}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } }, (answer) => {
        answer.resume();
        resolve(answer.statusCode);
      });
      sending.on('error', reject);
      const half = Math.floor(body.length / 2);
      sending.write(body.slice(0, half));
      setTimeout(() => sending.end(body.slice(half)), 50);
    });
    expect(status).toBe(202);
  }

  it.each(['small', 'large'])('the body reader of %s bodies goes on in the request’s span', async (route) => {
    await post(`/${route}`, JSON.stringify({ filler: 'x'.repeat(600) }));
    await new Promise((resolve) => setImmediate(resolve));
    const [request] = recorded.spans().filter((span) => span.name.startsWith('POST'));
    expect(request).toBeDefined();
    const { traceId, spanId } = request!.spanContext();
    expect(seen).toEqual([{ route, traceparent: `00-${traceId}-${spanId}-01`, bodyBytes: 613 }]);
  });

  it('writes the request’s trace id on its access line, the body read or not', async () => {
    await post('/large', '{"a":1}');
    await post('/small', '{"a":1}');
    await new Promise((resolve) => setImmediate(resolve));
    const traceIds = new Map(recorded.spans().map((span) => [span.attributes['url.path'], span.spanContext().traceId]));
    expect(traceIds.size).toBe(2);
    expect(logLines.filter((line) => line.msg === 'request').map(({ path, traceId }) => ({ path, traceId }))).toEqual([
      { path: '/large', traceId: traceIds.get('/large') },
      { path: '/small', traceId: traceIds.get('/small') },
    ]);
  });

  it('leaves no span active outside the request once it is answered', async () => {
    await post('/small', '{}');
    expect(activeTraceContext()).toBeUndefined();
  });
});
