import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express, { Router } from 'express';
import { parseExposition, renderMetrics, sampleValue } from '@formcast/metrics';
import { createLogger } from '@formcast/platform';
import { uniqueName } from '@formcast/testing';
import { errorHandler } from '../../src/http/error-handler';
import { useHttpMetrics } from '../../src/http/http-metrics';
import { requestContext } from '../../src/http/request-context';

/** An app mounted the way the gateway's is: a parameterised mount, a router inside a router, a route with its full path. */
function appUnder(prefix: string) {
  const app = express();
  app.use(requestContext(createLogger({ level: 'silent' })));
  useHttpMetrics(app, 'admin-token-for-this-test', { record: true, serveWithAdminToken: true });
  const clients = Router({ mergeParams: true });
  clients.post('/oneshots{.:format}', (_req, res) => {
    res.status(202).end();
  });
  const inner = Router({ mergeParams: true });
  inner.get('/groups/:groupId{.:format}', (_req, res) => {
    res.status(404).end();
  });
  const organization = Router({ mergeParams: true });
  organization.use(inner);
  app.use(`/${prefix}/clients/:deviceRef`, clients);
  app.use(`/${prefix}/organizations/:orgId`, organization);
  app.get(`/${prefix}/whole/:id{.json}`, (_req, res) => {
    res.json({});
  });
  app.use(errorHandler);
  return app;
}

describe('HTTP metrics', () => {
  const prefix = uniqueName('t');
  let server: Server;
  let origin: string;

  beforeAll(async () => {
    server = appUnder(prefix).listen(0);
    await new Promise((resolve) => server.once('listening', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('labels requests with their route template, never the ids in their path', async () => {
    for (const device of ['dev-qx', 'dev-zy', '42']) expect((await fetch(`${origin}/${prefix}/clients/${device}/oneshots.json`, { method: 'POST' })).status).toBe(202);
    expect((await fetch(`${origin}/${prefix}/organizations/7/groups/9.xml`)).status).toBe(404);
    expect((await fetch(`${origin}/${prefix}/whole/5.json`)).status).toBe(200);
    expect((await fetch(`${origin}/${prefix}/no/such/path`)).status).toBe(404);

    const samples = parseExposition((await renderMetrics()).body);
    const requests = (route: string, method: string, status: string) => sampleValue(samples, 'formcast_http_requests_total', { route, method, status });
    expect(requests(`/${prefix}/clients/:deviceRef/oneshots`, 'POST', '202')).toBe(3);
    expect(requests(`/${prefix}/organizations/:orgId/groups/:groupId`, 'GET', '404')).toBe(1);
    expect(requests(`/${prefix}/whole/:id`, 'GET', '200')).toBe(1);
    expect(sampleValue(samples, 'formcast_http_request_duration_seconds_count', { route: `/${prefix}/clients/:deviceRef/oneshots`, method: 'POST' })).toBe(3);
    const routes = samples.filter((s) => s.name === 'formcast_http_requests_total').map((s) => s.labels.route ?? '');
    // Whole path segments only: the random prefix may hold any of these characters.
    expect(routes.filter((route) => /\/(dev-qx|dev-zy|42|7|9|5)(\/|\.|$)/.test(route))).toEqual([]);
  });

  it('serves /metrics only with the admin token', async () => {
    const refused = await fetch(`${origin}/metrics`);
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toMatch(/^Bearer/);
    const served = await fetch(`${origin}/metrics`, { headers: { authorization: 'Bearer admin-token-for-this-test' } });
    expect(served.status).toBe(200);
    expect(sampleValue(parseExposition(await served.text()), 'formcast_http_requests_total', { route: '/metrics', status: '401' })).toBe(1);
  });
});
