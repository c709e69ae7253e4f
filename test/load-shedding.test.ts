import { parseExposition, sampleValue } from '@formcast/metrics';
import { basicAuth, pause, RawConnection, requestHead } from './support/raw-http';
import { systemModes } from './support/start-system';
import { useSystem } from './support/use-system';

const maxInFlight = 3;
const refusedConnectionPauseMs = 1000;

describe.each(systemModes)('Load shedding: 503 with Retry-After at once past SHED_MAX_IN_FLIGHT, ready all along (%s)', (mode) => {
  const sys = useSystem(mode, { organizations: 2, env: { SHED_MAX_IN_FLIGHT: String(maxInFlight), SHED_REFUSED_CONNECTION_PAUSE_MS: String(refusedConnectionPauseMs) } });

  it('sheds a new request at once while the bound is held, keeps /readyz ready, counts it, and serves again once the load goes', async () => {
    const [org, other] = sys.orgs;
    const groupsPath = (o: typeof org) => `/organizations/${o.orgId}/groups.json`;
    const otherBefore = (await sys.api.get(groupsPath(other), { token: other.token })).text;
    // Requests under way: bodies that have not arrived (20 of 40 bytes).
    const held = await Promise.all(Array.from({ length: maxInFlight }, () => RawConnection.open(sys.api.baseUrl)));
    for (const connection of held) {
      await connection.write(requestHead('POST', groupsPath(org), { authorization: basicAuth(org.token), 'content-type': 'application/json', 'content-length': 40 }));
      await connection.write('["Held team",        ');
    }
    await pause(200);

    const started = performance.now();
    const shed = await sys.api.post(groupsPath(org), { token: org.token, json: ['Shed team'] });
    expect(performance.now() - started).toBeLessThan(1000);
    expect(shed.status).toBe(503);
    expect(shed.headers.get('retry-after')).toBe('1');
    expect(shed.json()).toMatchObject({ status: '503', message: expect.stringMatching(/overloaded \(too many requests under way\)/) });
    // Another organization is shed too (the bound is the gateway's), and its data is unchanged.
    expect((await sys.api.get(groupsPath(other), { token: other.token })).status).toBe(503);
    // Ready all along: an overloaded gateway stays in the Service.
    expect((await fetch(`${sys.api.baseUrl}/readyz`)).status).toBe(200);
    expect((await fetch(`${sys.api.baseUrl}/healthz`)).status).toBe(200);
    if (mode === 'embedded') {
      const metrics = await fetch(`${sys.api.baseUrl}/metrics`, { headers: { authorization: `Bearer ${sys.adminToken}` } });
      const samples = parseExposition(await metrics.text());
      expect(sampleValue(samples, 'formcast_http_shed_total', { reason: 'in_flight' })).toBeGreaterThanOrEqual(2);
      expect(sampleValue(samples, 'formcast_http_in_flight_requests')).toBe(maxInFlight);
    }

    for (const connection of held) connection.destroy();
    await pause(200);
    const served = await sys.api.post(groupsPath(org), { token: org.token, json: ['Served team'] });
    expect(served.status).toBe(201);
    const listed = (await sys.api.get(groupsPath(org), { token: org.token })).text;
    expect(listed).toMatch(/Served team/);
    expect(listed).not.toMatch(/Shed team|Held team/);
    expect((await sys.api.get(groupsPath(other), { token: other.token })).text).toBe(otherBefore);
  });

  it("reads a refused connection's next request only SHED_REFUSED_CONNECTION_PAUSE_MS after its 503; another connection is served at once", async () => {
    const [org] = sys.orgs;
    const groupsPath = `/organizations/${org.orgId}/groups.json`;
    const get = requestHead('GET', groupsPath, { authorization: basicAuth(org.token) });
    const held = await Promise.all(Array.from({ length: maxInFlight }, () => RawConnection.open(sys.api.baseUrl)));
    for (const connection of held) {
      await connection.write(requestHead('POST', groupsPath, { authorization: basicAuth(org.token), 'content-type': 'application/json', 'content-length': 40 }));
      await connection.write('["Held team",        ');
    }
    await pause(200);
    const refused = await RawConnection.open(sys.api.baseUrl);
    try {
      // Timed from the sending: the server's pause starts after it, whenever this busy process reads the 503.
      const refusedAt = performance.now();
      await refused.write(get);
      await refused.waitForText(/^HTTP\/1\.1 503/);
      for (const connection of held) connection.destroy();
      await pause(100);
      await refused.write(get);
      const elsewhere = await sys.api.get(groupsPath, { token: org.token });
      const elsewhereAt = performance.now();
      expect(elsewhere.status).toBe(200);
      await refused.waitForText(/HTTP\/1\.1 200/);
      const againAt = performance.now();
      expect(againAt - refusedAt).toBeGreaterThanOrEqual(refusedConnectionPauseMs - 100);
      expect(elsewhereAt).toBeLessThan(againAt);
    } finally {
      refused.destroy();
      for (const connection of held) connection.destroy();
    }
  });
});
