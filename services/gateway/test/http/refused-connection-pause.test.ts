import http from 'node:http';
import type { AddressInfo } from 'node:net';
import express, { type Request, type Response } from 'express';
import { AppError, createLogger } from '@formcast/platform';
import { gate } from '@formcast/testing';
import { errorHandler } from '../../src/http/error-handler';
import { LoadShedder } from '../../src/http/load-shedding';
import { pauseRefusedConnections } from '../../src/http/refused-connection-pause';
import { requestContext } from '../../src/http/request-context';

const pauseMs = 600;

interface Answer {
  status: number;
  /** When the request was sent: the server's pause starts after that, whenever this process reads the answer. */
  sentAt: number;
  at: number;
  reusedSocket: boolean;
}

/** One request on `agent` (a keep-alive agent of one socket keeps a connection), its status and when it was answered. */
function send(base: string, agent: http.Agent | undefined, method: string, path: string, body?: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const sentAt = performance.now();
    const req = http.request(`${base}${path}`, { method, agent, headers: body ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } : {} }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode!, sentAt, at: performance.now(), reusedSocket: req.reusedSocket }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

function serve(app: express.Express) {
  const server = app.listen(0);
  return { base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => new Promise((resolve) => server.close(resolve)) };
}

describe('a connection whose request was refused for load is read again only after a pause', () => {
  it('at the door (503): the answer goes at once; that connection\'s next request waits the pause, another connection\'s does not', async () => {
    const shedder = new LoadShedder({ maxInFlight: 1, maxEventLoopDelayMs: 0, sampleIntervalMs: 250, refusedConnectionPauseMs: pauseMs });
    const held = gate();
    const app = express();
    app.use(shedder.door);
    app.use(requestContext(createLogger({ level: 'silent' })));
    app.use(shedder.middleware);
    app.use(express.json());
    app.all('/work.json', async (req: Request, res: Response) => {
      if (req.query['hold'] === '1') await held.opened;
      res.json({ ok: true });
    });
    app.use(errorHandler);
    const { base, close } = serve(app);
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const holding = send(base, undefined, 'GET', '/work.json?hold=1');
      await new Promise((resolve) => setTimeout(resolve, 100));
      const refused = await send(base, agent, 'POST', '/work.json', '{"a":1}');
      expect(refused.status).toBe(503);
      held.open();
      expect((await holding).status).toBe(200);
      const [again, elsewhere] = await Promise.all([send(base, agent, 'POST', '/work.json', '{"a":2}'), send(base, undefined, 'POST', '/work.json', '{"a":3}')]);
      expect(again).toMatchObject({ status: 200, reusedSocket: true });
      expect(again.at - refused.sentAt).toBeGreaterThanOrEqual(pauseMs - 50);
      expect(elsewhere.status).toBe(200);
      expect(elsewhere.at).toBeLessThan(again.at);
    } finally {
      held.open();
      agent.destroy();
      await close();
      shedder.stop();
    }
  });

  it('past a rate limit (429, through the error handler) the same; a 404 is no refusal for load and pauses nothing', async () => {
    const app = express();
    app.use(requestContext(createLogger({ level: 'silent' })));
    app.get('/limited.json', () => {
      throw new AppError('rate_limited', 'Too many requests');
    });
    app.get('/missing.json', () => {
      throw new AppError('not_found', 'No such thing');
    });
    app.get('/fine.json', (_req: Request, res: Response) => {
      res.json({ ok: true });
    });
    app.use(pauseRefusedConnections(pauseMs));
    app.use(errorHandler);
    const { base, close } = serve(app);
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const missing = await send(base, agent, 'GET', '/missing.json');
      expect(missing.status).toBe(404);
      const afterMissing = await send(base, agent, 'GET', '/fine.json');
      expect(afterMissing).toMatchObject({ status: 200, reusedSocket: true });
      expect(afterMissing.at - missing.at).toBeLessThan(pauseMs - 50);

      const limited = await send(base, agent, 'GET', '/limited.json');
      expect(limited.status).toBe(429);
      const afterLimited = await send(base, agent, 'GET', '/fine.json');
      expect(afterLimited).toMatchObject({ status: 200, reusedSocket: true });
      expect(afterLimited.at - limited.sentAt).toBeGreaterThanOrEqual(pauseMs - 50);
    } finally {
      agent.destroy();
      await close();
    }
  });
});
