import express, { Router } from 'express';
import type { AddressInfo } from 'node:net';
import { gatedRouter, literalPrefix } from '../../src/http/path-gate';

describe('literalPrefix', () => {
  it('stops at the first parameter, wildcard, optional part or escape', () => {
    expect(literalPrefix('/groups/:groupId{.:format}')).toBe('/groups/');
    expect(literalPrefix('/api/v3/users/*rest')).toBe('/api/v3/users/');
    expect(literalPrefix('/healthz')).toBe('/healthz');
    expect(literalPrefix('/oneshots{.json}')).toBe('/oneshots');
    expect(literalPrefix('/a\\:b')).toBe('/a');
  });
});

describe('gatedRouter', () => {
  const routes = Router();
  routes.get('/clients/:ref/oneshots{.:format}', (req, res) => {
    res.json({ ref: req.params.ref, format: req.params.format ?? null });
  });
  routes.post(['/devices/enroll', '/device/push_token'], (_req, res) => {
    res.json({ posted: true });
  });
  // The router function hands every request to its `handle`.
  const entered = jest.spyOn(routes as unknown as { handle: () => void }, 'handle');
  let server: ReturnType<express.Express['listen']>;
  let origin: string;

  beforeAll(async () => {
    const app = express();
    app.use(gatedRouter(routes));
    app.use((_req, res) => {
      res.status(404).json({ fellThrough: true });
    });
    await new Promise<void>((resolve) => {
      server = app.listen(0, () => resolve());
    });
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
  beforeEach(() => entered.mockClear());

  const call = async (path: string, method = 'GET') => {
    const res = await fetch(origin + path, { method });
    return { status: res.status, body: await res.json() };
  };

  it('passes every path a route matches, in any case, with its parameters and a trailing slash', async () => {
    expect(await call('/clients/a1/oneshots.json')).toEqual({ status: 200, body: { ref: 'a1', format: 'json' } });
    expect(await call('/CLIENTS/a1/OneShots')).toEqual({ status: 200, body: { ref: 'a1', format: null } });
    expect(await call('/clients/a%2F1/oneshots')).toEqual({ status: 200, body: { ref: 'a/1', format: null } });
    expect(await call('/device/push_token/', 'POST')).toEqual({ status: 200, body: { posted: true } });
  });

  it('lets a path no route can match go on without entering the router', async () => {
    expect(await call('/other')).toEqual({ status: 404, body: { fellThrough: true } });
    expect(await call('/%63lients/a1/oneshots')).toEqual({ status: 404, body: { fellThrough: true } });
    expect(entered).not.toHaveBeenCalled();
  });

  it('leaves the rest to the router: a path its prefix admits but no route matches goes on too', async () => {
    expect(await call('/clients/a1/twoshots')).toEqual({ status: 404, body: { fellThrough: true } });
    expect(await call('/devices/enroll', 'GET')).toEqual({ status: 404, body: { fellThrough: true } });
    expect(entered).toHaveBeenCalledTimes(2);
  });

  it('keeps the router’s stack, for what walks the app’s routes', () => {
    expect((gatedRouter(routes) as unknown as { stack: unknown }).stack).toBe(routes.stack);
  });

  it('returns a router with anything but routes as it is', () => {
    const router = Router();
    router.use((_req, _res, next) => next());
    expect(gatedRouter(router)).toBe(router);
  });
});
