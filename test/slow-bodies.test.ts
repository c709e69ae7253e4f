import { basicAuth, pause, RawConnection, requestHead } from './support/raw-http';
import { systemModes } from './support/start-system';
import { useSystem } from './support/use-system';

/** A one-second window at 1,000 bytes a second: a 60 KB body may take a minute in all, but no window may bring less. */
const env = { REQUEST_BODY_TIMEOUT_MS: '1000', REQUEST_BODY_MIN_BYTES_PER_SECOND: '1000' };

describe.each(systemModes)('Slow bodies: cut when their rate over a sliding window falls below the minimum (%s)', (mode) => {
  const sys = useSystem(mode, { organizations: 2, env });

  it('answers 408 and closes a body trickling at 25 bytes a second long before its overall deadline; nothing is stored; another organization is unchanged', async () => {
    const [org, other] = sys.orgs;
    const groups = (o: typeof org) => `/organizations/${o.orgId}/groups.json`;
    const theirsBefore = (await sys.api.get(groups(other), { token: other.token })).text;
    const connection = await RawConnection.open(sys.api.baseUrl);
    try {
      const body = JSON.stringify(['Trickled team', 'x'.repeat(60_000)]);
      await connection.write(requestHead('POST', groups(org), { authorization: basicAuth(org.token), 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }));
      const started = Date.now();
      for (let sent = 0; sent < body.length && !connection.isClosed && !/HTTP\/1\.1 408/.test(connection.text); sent += 5) {
        await connection.write(body.slice(sent, sent + 5));
        await pause(200);
      }
      await connection.waitForText(/^HTTP\/1\.1 408 [\s\S]*arrived slower than 1000 bytes a second/);
      expect(Date.now() - started).toBeLessThan(10_000);
      expect(await connection.closedWithin(5_000)).toBe(true);
    } finally {
      connection.destroy();
    }
    expect((await sys.api.get(groups(org), { token: org.token })).text).not.toMatch(/Trickled team/);
    expect((await sys.api.get(groups(other), { token: other.token })).text).toBe(theirsBefore);
  }, 30_000);
});
