import { basicAuth, pause, RawConnection, requestHead } from './support/raw-http';
import { sideBySide } from './support/side-by-side';
import { systemModes } from './support/start-system';
import { useSystem } from './support/use-system';

const bodyLimit = 64 * 1024;
const resourceMaxBytes = 16 * 1024;
/** The resources route's body limit for that file size (resourceBodyLimit): its Base64 three times over, and 64 KiB. */
const resourceBodyLimit = 3 * 4 * Math.ceil(resourceMaxBytes / 3) + 64 * 1024;

const env = { BODY_LIMIT_BYTES: String(bodyLimit), RESOURCE_MAX_BYTES: String(resourceMaxBytes) };

/**
 * Writes `total` bytes of a refused body in `chunkBytes` pieces `everyMs` apart, without
 * reading, as Python's urllib does; answers whether every write went through.
 */
async function sendSlowly(connection: RawConnection, total: number, chunkBytes: number, everyMs: number): Promise<boolean> {
  for (let sent = 0; sent < total; sent += chunkBytes) {
    if (!(await connection.write(Buffer.alloc(Math.min(chunkBytes, total - sent), 'A')))) return false;
    await pause(everyMs);
  }
  return true;
}

describe.each(systemModes)('Refusing large bodies (%s)', (mode) => {
  const sys = useSystem(mode, { organizations: 1, env, hookTimeoutMs: 120_000 });
  const opened: RawConnection[] = [];
  const open = async () => {
    const connection = await RawConnection.open(sys.api.baseUrl);
    opened.push(connection);
    return connection;
  };
  afterEach(() => {
    for (const connection of opened.splice(0)) connection.destroy();
  });
  const groupsPath = () => `/organizations/${sys.org.orgId}/groups.json`;

  describe('with Expect: 100-continue', () => {
    it('refuses a Content-Length over the limit with 413 naming it, before the body is sent, and closes', async () => {
      const connection = await open();
      await connection.write(
        requestHead('POST', groupsPath(), {
          Authorization: basicAuth(sys.org.token),
          'Content-Type': 'application/json',
          'Content-Length': 80 * 1024 * 1024,
          Expect: '100-continue',
        }),
      );
      const answer = await connection.waitForText(/^HTTP\/1\.1 \d{3}[\s\S]*\r\n\r\n[\s\S]*\}/);
      expect(answer).toMatch(/^HTTP\/1\.1 413 /);
      expect(answer).not.toMatch(/100 Continue/);
      expect(answer).toContain(`at most ${bodyLimit} bytes`);
      expect(await connection.closedWithin(5_000)).toBe(true);
    });

    it('refuses an upload over the resources limit the same way', async () => {
      const connection = await open();
      await connection.write(
        requestHead('POST', '/api/resources.json', {
          Authorization: basicAuth(sys.org.token),
          'Content-Type': 'application/json',
          'Content-Length': resourceBodyLimit + 1,
          Expect: '100-continue',
        }),
      );
      const answer = await connection.waitForText(/^HTTP\/1\.1 \d{3}[\s\S]*\r\n\r\n[\s\S]*\}/);
      expect(answer).toMatch(/^HTTP\/1\.1 413 /);
      expect(answer).not.toMatch(/100 Continue/);
      expect(answer).toContain(`at most ${resourceMaxBytes} bytes`);
      expect(await connection.closedWithin(5_000)).toBe(true);
    });

    it('answers 401 first for a body over the limit without a valid token, before the body is sent', async () => {
      const connection = await open();
      await connection.write(
        requestHead('POST', '/api/resources.json', {
          Authorization: basicAuth('not-a-token'),
          'Content-Type': 'application/json',
          'Content-Length': resourceBodyLimit + 1,
          Expect: '100-continue',
        }),
      );
      const answer = await connection.waitForText(/^HTTP\/1\.1 \d{3}[\s\S]*\r\n\r\n/);
      expect(answer).toMatch(/^HTTP\/1\.1 401 /);
      expect(answer).not.toMatch(/100 Continue/);
    });

    it('asks for a body within the limit (100 Continue) and takes it', async () => {
      const connection = await open();
      const body = JSON.stringify([`Continued ${Date.now()}`]);
      await connection.write(
        requestHead('POST', groupsPath(), {
          Authorization: basicAuth(sys.org.token),
          'Content-Type': 'application/json',
          'Content-Length': Buffer.byteLength(body),
          Expect: '100-continue',
        }),
      );
      await connection.waitForText(/^HTTP\/1\.1 100 Continue\r\n\r\n/);
      await connection.write(body);
      const answer = await connection.waitForText(/HTTP\/1\.1 100 Continue\r\n\r\nHTTP\/1\.1 \d{3}/);
      expect(answer).toMatch(/HTTP\/1\.1 100 Continue\r\n\r\nHTTP\/1\.1 201 /);
    });
  });

  describe('without Expect', () => {
    // The two drains take seconds of slow writing each: they run side by side, on connections of their own (afterEach above would cut them).
    const draining: RawConnection[] = [];
    const openForDrain = async () => {
      const connection = await RawConnection.open(sys.api.baseUrl);
      draining.push(connection);
      return connection;
    };
    afterAll(() => {
      for (const connection of draining.splice(0)) connection.destroy();
    });
    const scenario = sideBySide();

    const slowRefusedBody = scenario(async () => {
      const connection = await openForDrain();
      const total = Math.floor(1.5 * bodyLimit);
      await connection.write(
        requestHead('POST', groupsPath(), { Authorization: basicAuth(sys.org.token), 'Content-Type': 'application/json', 'Content-Length': total }),
      );
      // About 3.5 s of writing: the server used to stop draining after 2 s, and the writes then failed.
      const allWritten = await sendSlowly(connection, total, 4 * 1024, 150);
      const answer = await connection.waitForText(/^HTTP\/1\.1 413 [\s\S]*\r\n\r\n[\s\S]*\}/);
      const error = connection.error;
      // The body ended within the bounds: the connection serves the next request.
      await connection.write(requestHead('GET', '/healthz', {}));
      await connection.waitForText(/HTTP\/1\.1 200 /);
      return { allWritten, answer, error };
    });
    it('drains a refused body sent slowly for several seconds, so the client reads the 413, and keeps the connection', async () => {
      const { allWritten, answer, error } = await slowRefusedBody();
      expect(allWritten).toBe(true);
      expect(answer).toContain(`at most ${bodyLimit} bytes`);
      expect(error).toBeUndefined();
    }, 30_000);

    const slowRefusedUpload = scenario(async () => {
      const connection = await openForDrain();
      const total = Math.floor(1.5 * resourceBodyLimit);
      await connection.write(
        requestHead('POST', '/api/resources.json', { Authorization: basicAuth(sys.org.token), 'Content-Type': 'application/json', 'Content-Length': total }),
      );
      const allWritten = await sendSlowly(connection, total, 8 * 1024, 120);
      const answer = await connection.waitForText(/^HTTP\/1\.1 413 [\s\S]*\r\n\r\n[\s\S]*\}/);
      return { allWritten, answer, error: connection.error };
    });
    it('drains a refused resource upload the same way', async () => {
      const { allWritten, answer, error } = await slowRefusedUpload();
      expect(allWritten).toBe(true);
      expect(answer).toContain(`at most ${resourceMaxBytes} bytes`);
      expect(error).toBeUndefined();
    }, 30_000);

    it('reads the whole of a refused body many times the limit, written before reading (as urllib does), so the client gets the 413', async () => {
      const connection = await open();
      const total = 40 * bodyLimit;
      await connection.write(
        requestHead('POST', groupsPath(), { Authorization: basicAuth(sys.org.token), 'Content-Type': 'application/json', 'Content-Length': total }),
      );
      // The whole body first, only then the answer: no write fails (EPIPE, ECONNRESET).
      const chunk = Buffer.alloc(bodyLimit / 4, 'A');
      let sent = 0;
      while (sent < total && (await connection.write(chunk))) sent += chunk.length;
      expect(sent).toBe(total);
      const answer = await connection.waitForText(/^HTTP\/1\.1 413 [\s\S]*\r\n\r\n[\s\S]*\}/);
      expect(answer).toContain(`at most ${bodyLimit} bytes`);
      expect(connection.error).toBeUndefined();
    }, 60_000);
  });
});
