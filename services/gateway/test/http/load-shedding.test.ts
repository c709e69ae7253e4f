import { connect, type AddressInfo } from 'node:net';
import express, { type Request, type RequestHandler, type Response } from 'express';
import { createLogger } from '@formcast/platform';
import { gate, waitFor } from '@formcast/testing';
import { errorHandler } from '../../src/http/error-handler';
import { LoadShedder } from '../../src/http/load-shedding';
import { requestContext } from '../../src/http/request-context';

/**
 * An app whose route answers `{ orgId }` after its `handlers` (held while `?hold=1` until
 * `held` opens), behind the request context, and behind the shedder's door when `door`.
 */
function serveWork(shedder: LoadShedder, route: { method: 'get' | 'post'; path: string | RegExp; handlers: RequestHandler[] }, door = false) {
  const held = gate();
  const counts = { arrived: 0 };
  const app = express();
  if (door) app.use(shedder.door);
  app.use(requestContext(createLogger({ level: 'silent' })));
  app.use(express.json());
  app[route.method](route.path, ...route.handlers, async (req: Request, res: Response) => {
    counts.arrived += 1;
    if (req.query['hold'] === '1') await held.opened;
    res.json({ orgId: req.context.orgId });
  });
  app.use(errorHandler);
  const server = app.listen(0);
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    held,
    counts,
    close: async () => {
      held.open();
      await new Promise((resolve) => server.close(resolve));
      shedder.stop();
    },
  };
}

describe('LoadShedder', () => {
  it('sheds while the event loop runs later than SHED_EVENT_LOOP_DELAY_MS, and stops once it catches up', async () => {
    const shedder = new LoadShedder({ maxInFlight: 0, maxEventLoopDelayMs: 100, sampleIntervalMs: 500 });
    try {
      expect(shedder.reason()).toBeNull();
      // The loop blocked for 700 ms: the reading made as it ends sees it, and holds for an
      // interval (500 ms: wide enough to be seen on a machine busy with other suites).
      const until = Date.now() + 700;
      while (Date.now() < until) {
        // busy
      }
      await waitFor(() => shedder.reason() === 'event_loop_delay', { timeoutMs: 2000, intervalMs: 10, description: 'shedding for the late event loop' });
      await waitFor(() => shedder.reason() === null, { timeoutMs: 3000, description: 'no shedding once the loop caught up' });
    } finally {
      shedder.stop();
    }
  });
});

describe('LoadShedder: the bound of one organization (SHED_MAX_IN_FLIGHT_PER_ORGANIZATION)', () => {
  it("answers 503 at once to one organization past its own requests under way, serves another's, and serves it again once one ends", async () => {
    const shedder = new LoadShedder({ maxInFlight: 0, maxInFlightPerOrganization: 2, maxEventLoopDelayMs: 0, sampleIntervalMs: 250 });
    // Stands for requireApiToken: the organization from a header; run twice, as two routers may.
    const authenticate: RequestHandler = (req, _res, next) => {
      req.context.orgId = Number(req.headers['x-org']);
      next();
    };
    const { base, held, counts, close } = serveWork(shedder, { method: 'get', path: '/work', handlers: [shedder.afterApiToken(authenticate), shedder.afterApiToken(authenticate)] });
    const get = (org: number, hold = false) => fetch(`${base}/work${hold ? '?hold=1' : ''}`, { headers: { 'x-org': String(org) } });
    try {
      const holding = [get(1, true), get(1, true)];
      await waitFor(() => counts.arrived === 2, { description: 'two requests of organization 1 under way' });
      const started = performance.now();
      const shed = await get(1);
      expect(performance.now() - started).toBeLessThan(1000);
      expect(shed.status).toBe(503);
      expect(shed.headers.get('retry-after')).toBe('1');
      expect(await shed.json()).toMatchObject({ message: expect.stringMatching(/too many requests of this organization under way/) });
      const other = await get(2);
      expect(other.status).toBe(200);
      expect(await other.json()).toEqual({ orgId: 2 });
      held.open();
      expect((await Promise.all(holding)).map((r) => r.status)).toEqual([200, 200]);
      await waitFor(async () => (await get(1)).status === 200, { description: 'organization 1 served again' });
    } finally {
      await close();
    }
  });
});

describe('LoadShedder: the line of one organization (SHED_RUNNING_PER_ORGANIZATION)', () => {
  /** Stands for requireApiToken: the organization named by the Authorization header. */
  const authenticate: RequestHandler = (req, _res, next) => {
    req.context.orgId = Number(/^Basic org-(\d+)$/.exec(req.headers.authorization ?? '')?.[1]);
    next();
  };

  it.each([
    ['after authentication', false],
    ['at the door', true],
  ])("%s: holds an organization's requests past its running ones unworked in its line, starts another's at once, then each in turn", async (_where, door) => {
    const shedder = new LoadShedder({ maxInFlight: 0, maxInFlightPerOrganization: 10, runningPerOrganization: 2, maxEventLoopDelayMs: 0, sampleIntervalMs: 250 });
    const { base, held, counts, close } = serveWork(shedder, { method: 'post', path: '/work.json', handlers: [shedder.afterApiToken(authenticate)] }, door);
    const post = (org: number, hold = false) =>
      fetch(`${base}/work.json${hold ? '?hold=1' : ''}`, { method: 'POST', headers: { authorization: `Basic org-${org}`, 'content-type': 'application/json' }, body: '{}' });
    try {
      // The door knows an Authorization once it has passed authentication.
      expect((await post(1)).status).toBe(200);
      const running = [post(1, true), post(1, true)];
      await waitFor(() => counts.arrived === 3, { description: 'two requests of organization 1 running' });
      const waiting = [post(1), post(1)];
      await new Promise((resolve) => setTimeout(resolve, 200));
      // In the line: neither has reached the route.
      expect(counts.arrived).toBe(3);
      // Another organization's request starts at once.
      expect((await post(2)).status).toBe(200);
      expect(counts.arrived).toBe(4);
      held.open();
      expect((await Promise.all([...running, ...waiting])).map((r) => r.status)).toEqual([200, 200, 200, 200]);
      expect(counts.arrived).toBe(6);
    } finally {
      await close();
    }
  });

  it('narrows every organization to SHED_RUNNING_PER_ORGANIZATION_WHEN_SHARED places while another is active and the gateway holds that many in all; alone, an organization keeps them all', async () => {
    const shedder = new LoadShedder({ maxInFlight: 0, maxInFlightPerOrganization: 20, runningPerOrganization: 3, runningPerOrganizationWhenShared: 1, maxEventLoopDelayMs: 0, sampleIntervalMs: 250 });
    const { base, held, counts, close } = serveWork(shedder, { method: 'get', path: '/work', handlers: [shedder.afterApiToken(authenticate)] });
    const get = (org: number, hold = false) => fetch(`${base}/work${hold ? '?hold=1' : ''}`, { headers: { authorization: `Basic org-${org}` } });
    try {
      // Alone, organization 1 runs as many as its places.
      const running = [get(1, true), get(1, true)];
      await waitFor(() => counts.arrived === 2, { description: 'two requests of organization 1 running' });
      // Another organization's request starts at once (the gateway held 2 of 3: not pressed yet).
      running.push(get(2, true));
      await waitFor(() => counts.arrived === 3, { description: "organization 2's request running" });
      // Now shared and pressed (3 held): organization 1 has one place, and two running.
      const narrowed = get(1);
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(counts.arrived).toBe(3);
      held.open();
      expect((await Promise.all([...running, narrowed])).map((r) => r.status)).toEqual([200, 200, 200, 200]);
      expect(counts.arrived).toBe(4);
    } finally {
      await close();
    }
  });

  it('answers 503 with Retry-After to a request that waited 1 s, and lets one whose client went away leave the line without taking a place', async () => {
    const shedder = new LoadShedder({ maxInFlight: 0, maxInFlightPerOrganization: 10, runningPerOrganization: 1, maxEventLoopDelayMs: 0, sampleIntervalMs: 250 });
    const { base, held, counts, close } = serveWork(shedder, { method: 'get', path: '/work', handlers: [shedder.afterApiToken(authenticate)] });
    const get = (hold = false, signal?: AbortSignal) => fetch(`${base}/work${hold ? '?hold=1' : ''}`, { headers: { authorization: 'Basic org-1' }, signal });
    try {
      const running = get(true);
      await waitFor(() => counts.arrived === 1, { description: 'one request running' });
      const gone = new AbortController();
      const abandoned = get(false, gone.signal).catch((error: unknown) => error);
      await new Promise((resolve) => setTimeout(resolve, 100));
      gone.abort();
      expect(await abandoned).toMatchObject({ name: 'AbortError' });
      const started = performance.now();
      const waited = await get();
      expect(performance.now() - started).toBeGreaterThanOrEqual(900);
      expect(waited.status).toBe(503);
      expect(waited.headers.get('retry-after')).toBe('1');
      expect(await waited.json()).toMatchObject({ message: expect.stringMatching(/too many requests of this organization under way/) });
      expect(counts.arrived).toBe(1);
      held.open();
      expect((await running).status).toBe(200);
      // Neither the abandoned request nor the refused one kept a place: the next starts at once.
      const next = await get();
      expect(next.status).toBe(200);
      expect(counts.arrived).toBe(2);
    } finally {
      await close();
    }
  });
});

describe('LoadShedder: a request whose connection ends while it is authenticated', () => {
  it('is not left counted against its organization (a GET with an unannounced body: Node answers 400 and drops the connection)', async () => {
    const shedder = new LoadShedder({ maxInFlight: 0, maxInFlightPerOrganization: 1, maxEventLoopDelayMs: 0, sampleIntervalMs: 250 });
    // Stands for requireApiToken over the bus: the organization is known only later.
    const authenticate: RequestHandler = (req, _res, next) => {
      setTimeout(() => {
        req.context.orgId = Number(req.headers['x-org']);
        next();
      }, 150);
    };
    const { base, close } = serveWork(shedder, { method: 'get', path: '/work', handlers: [shedder.afterApiToken(authenticate)] });
    try {
      const { port } = new URL(base);
      // The bytes after the request are read as a next request that cannot be parsed.
      const dropped = await new Promise<string>((resolve) => {
        let answer = '';
        const socket = connect(Number(port), '127.0.0.1', () => socket.write('GET /work HTTP/1.1\r\nHost: gateway\r\nx-org: 1\r\n\r\n{"not":"announced"}\r\n\r\n'));
        socket.on('data', (chunk) => (answer += chunk.toString()));
        socket.on('close', () => resolve(answer));
        socket.on('error', () => undefined);
      });
      expect(dropped).toMatch(/^HTTP\/1\.1 400 /);
      // Once its authentication is over, the organization has nothing under way: served, not 503.
      await new Promise((resolve) => setTimeout(resolve, 300));
      const next = await fetch(`${base}/work`, { headers: { 'x-org': '1' } });
      expect(next.status).toBe(200);
    } finally {
      await close();
    }
  });
});

describe('LoadShedder: refused at the door', () => {
  it("refuses an organization past its bound before any other work once its Authorization is known, serves another's, and lets what the door cannot judge take the whole way", async () => {
    const shedder = new LoadShedder({ maxInFlight: 0, maxInFlightPerOrganization: 2, maxEventLoopDelayMs: 0, sampleIntervalMs: 250 });
    let authenticated = 0;
    // Stands for requireApiToken: the organization named by the Authorization header.
    const authenticate: RequestHandler = (req, _res, next) => {
      authenticated += 1;
      req.context.orgId = Number(/^Basic org-(\d+)$/.exec(req.headers.authorization ?? '')?.[1]);
      next();
    };
    const { base, held, counts, close } = serveWork(shedder, { method: 'post', path: /^\/work(\.json|\.xml)?$/, handlers: [shedder.afterApiToken(authenticate)] }, true);
    const post = (org: number, { path = '/work.json', hold = false, body = '{}' } = {}) =>
      fetch(`${base}${path}${hold ? '?hold=1' : ''}`, { method: 'POST', headers: { authorization: `Basic org-${org}`, 'content-type': 'application/json' }, body });
    try {
      const holding = [post(1, { hold: true }), post(1, { hold: true })];
      await waitFor(() => counts.arrived === 2, { description: 'two requests of organization 1 under way' });
      const before = authenticated;
      const shed = await post(1);
      expect(shed.status).toBe(503);
      expect(shed.headers.get('retry-after')).toBe('1');
      expect(shed.headers.get('message')).toMatch(/too many requests of this organization under way/);
      expect(await shed.json()).toEqual({ status: '503', error: 'Service Unavailable', message: expect.stringMatching(/too many requests of this organization/) });
      // At the door: no request context (no X-Request-Id), no authentication.
      expect(shed.headers.get('x-request-id')).toBeNull();
      expect(authenticated).toBe(before);
      // Another organization is served.
      expect((await post(2)).status).toBe(200);
      // What the door cannot judge (an XML path, a body over 64 KiB) is refused after authentication, as before.
      for (const other of [post(1, { path: '/work.xml' }), post(1, { body: JSON.stringify({ pad: 'x'.repeat(70_000) }) })]) {
        const refused = await other;
        expect(refused.status).toBe(503);
        expect(refused.headers.get('x-request-id')).not.toBeNull();
      }
      held.open();
      expect((await Promise.all(holding)).map((r) => r.status)).toEqual([200, 200]);
      await waitFor(async () => (await post(1)).status === 200, { description: 'organization 1 served again' });
    } finally {
      await close();
    }
  });
});

describe('LoadShedder: counted at the door', () => {
  /** A request as the door and afterApiToken see it, and its answer. */
  const fake = () => {
    const listeners: Array<() => void> = [];
    const res = { once: (_event: string, listener: () => void) => listeners.push(listener), setHeader: () => undefined, writeHead: jest.fn(), end: jest.fn() };
    const headers = { authorization: 'Basic org-1', 'content-type': 'application/json', 'content-length': '2' };
    const req = { path: '/work.json', method: 'POST', headers, context: { orgId: 1 } };
    return { req: req as unknown as Request, res: res as unknown as Response, refused: () => res.writeHead.mock.calls.length > 0, close: () => listeners.forEach((listener) => listener()) };
  };

  it("counts a known organization's requests as the door lets them through, so those read in one turn cannot pass its bound together, and not again after authentication", () => {
    const shedder = new LoadShedder({ maxInFlight: 0, maxInFlightPerOrganization: 3, maxEventLoopDelayMs: 0, sampleIntervalMs: 250 });
    const authenticated = shedder.afterApiToken((_req, _res, next) => next());
    try {
      let passed = 0;
      const first = fake();
      authenticated(first.req, first.res, () => (passed += 1));
      // Ten more at once: two pass the door (three under way), eight are refused there.
      const more = Array.from({ length: 10 }, fake);
      for (const request of more) shedder.door(request.req, request.res, () => (passed += 1));
      expect(passed).toBe(3);
      expect(more.filter((request) => request.refused())).toHaveLength(8);
      // Authenticated, the two are not counted twice: still three under way.
      const through = more.filter((request) => !request.refused());
      for (const request of through) authenticated(request.req, request.res, () => (passed += 1));
      expect(passed).toBe(5);
      const over = fake();
      shedder.door(over.req, over.res, () => (passed += 1));
      expect(over.refused()).toBe(true);
      first.close();
      const next = fake();
      shedder.door(next.req, next.res, () => (passed += 1));
      expect(next.refused()).toBe(false);
      for (const request of [...through, next]) request.close();
    } finally {
      shedder.stop();
    }
  });
});

describe('LoadShedder: running late, judged per organization', () => {
  it('sheds, while the event loop runs late, the busiest organization with requests under way and serves a trickle beside it; requests without an API token are shed at once', async () => {
    const shedder = new LoadShedder({ maxInFlight: 0, maxInFlightPerOrganization: 128, maxEventLoopDelayMs: 100, sampleIntervalMs: 60_000 });
    const late = (delayMs: number) => Object.assign(shedder as unknown as { delayMs: number }, { delayMs });
    const authenticate: RequestHandler = (req, _res, next) => {
      req.context.orgId = Number(req.headers['x-org']);
      next();
    };
    const { base, held, counts, close } = serveWork(shedder, { method: 'get', path: '/work', handlers: [shedder.middleware, shedder.afterApiToken(authenticate)] });
    const get = (org: number, { hold = false, authorization = 'Basic dG9rZW46eA==' } = {}) =>
      fetch(`${base}/work${hold ? '?hold=1' : ''}`, { headers: { 'x-org': String(org), authorization } });
    try {
      // Organization 1 the busiest: 20 requests answered, then 6 under way.
      for (let i = 0; i < 20; i += 1) expect((await get(1)).status).toBe(200);
      const holding = Array.from({ length: 6 }, () => get(1, { hold: true }));
      await waitFor(() => counts.arrived === 26, { description: 'six requests of organization 1 under way' });
      late(1000);
      const shed = await get(1);
      expect(shed.status).toBe(503);
      expect(shed.headers.get('retry-after')).toBe('1');
      expect(await shed.json()).toMatchObject({ message: expect.stringMatching(/running late/) });
      const other = await get(2);
      expect(other.status).toBe(200);
      expect(await other.json()).toEqual({ orgId: 2 });
      expect((await get(2, { authorization: 'Bearer device-secret' })).status).toBe(503);
      // Organization 2 with a few under way (its own requests slowed down), far fewer admitted than organization 1: still served.
      holding.push(...Array.from({ length: 4 }, () => get(2, { hold: true })));
      await waitFor(() => counts.arrived === 31, { description: 'four requests of organization 2 under way' });
      expect((await get(2)).status).toBe(200);
      expect((await get(1)).status).toBe(503);
      late(0);
      expect((await get(1)).status).toBe(200);
      held.open();
      expect((await Promise.all(holding)).map((r) => r.status)).toEqual(Array(10).fill(200));
    } finally {
      await close();
    }
  });
});

describe('LoadShedder, idle', () => {
  const request = () => {
    const listeners: Array<() => void> = [];
    const res = { once: (_event: string, listener: () => void) => listeners.push(listener), setHeader: () => undefined };
    return { req: { path: '/clients/x/oneshots.json' }, res, close: () => listeners.forEach((listener) => listener()) };
  };

  it('stops watching the event loop after an interval without requests, and a request wakes it', async () => {
    const shedder = new LoadShedder({ maxInFlight: 0, maxEventLoopDelayMs: 100, sampleIntervalMs: 50 });
    try {
      expect(shedder.watching).toBe(true);
      await new Promise((resolve) => setTimeout(resolve, 130));
      expect(shedder.watching).toBe(false);
      const { req, res, close } = request();
      let passed = false;
      shedder.middleware(req as never, res as never, () => (passed = true));
      expect(passed).toBe(true);
      expect(shedder.watching).toBe(true);
      // Awake while the request is under way, whatever the intervals.
      await new Promise((resolve) => setTimeout(resolve, 130));
      expect(shedder.watching).toBe(true);
      close();
      // A late loop is still seen after a wake: the block below is read, and sheds.
      const until = Date.now() + 300;
      while (Date.now() < until) {
        // busy
      }
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(shedder.reason()).toBe('event_loop_delay');
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(shedder.reason()).toBeNull();
      expect(shedder.watching).toBe(false);
    } finally {
      shedder.stop();
    }
  });
});
