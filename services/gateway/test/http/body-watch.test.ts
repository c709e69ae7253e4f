import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Request, Response } from 'express';
import { RawConnection, requestHead, pause } from '../../../../test/support/raw-http';
import { watchRequestBodies } from '../../src/http/body-watch';
import { bodyTimeoutMs, defaultHttpTimeouts, type HttpTimeouts } from '../../src/http/http-timeouts';

const limitBytes = 64 * 1024;

/** A server watching bodies as the gateway does, whose handler answers `status` after `afterMs` without reading the body. */
async function serve(timeouts: Partial<HttpTimeouts>, handle: (req: IncomingMessage, res: ServerResponse) => void): Promise<{ server: Server; url: string }> {
  const watch = watchRequestBodies({ ...defaultHttpTimeouts, ...timeouts }, limitBytes);
  const server = createServer((req, res) => {
    watch(req as Request, res as Response, () => handle(req, res));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

const refuseAtOnce = (_req: IncomingMessage, res: ServerResponse) => {
  res.statusCode = 413;
  res.end('too large');
};

describe('bodyTimeoutMs', () => {
  it('grows with the size at the minimum rate', () => {
    const timeouts = { ...defaultHttpTimeouts, bodyBaseMs: 30_000, bodyMinBytesPerSecond: 64 * 1024 };
    expect(bodyTimeoutMs(0, timeouts)).toBe(30_000);
    expect(bodyTimeoutMs(1024 * 1024, timeouts)).toBe(46_000);
  });
});

describe('watchRequestBodies', () => {
  const servers: Server[] = [];
  const connections: RawConnection[] = [];
  const start = async (...args: Parameters<typeof serve>) => {
    const { server, url } = await serve(...args);
    servers.push(server);
    const connection = await RawConnection.open(url);
    connections.push(connection);
    return connection;
  };
  afterEach(async () => {
    for (const connection of connections.splice(0)) connection.destroy();
    for (const server of servers.splice(0)) await new Promise((resolve) => server.close(resolve));
  });

  it('answers 408 and closes when the body does not arrive within its time', async () => {
    const connection = await start({ bodyBaseMs: 300 }, () => undefined);
    await connection.write(requestHead('POST', '/', { 'Content-Length': 10 }) + 'abc');
    await connection.waitForText(/^HTTP\/1\.1 408 [\s\S]*did not arrive within 1 s/);
    expect(await connection.closedWithin(5_000)).toBe(true);
  });

  it('cuts a body whose rate over a sliding window falls below the minimum, long before its overall deadline (408)', async () => {
    const connection = await start({ bodyBaseMs: 300, bodyMinBytesPerSecond: 1000 }, (req, res) => {
      req.resume();
      req.on('end', () => res.end('whole'));
    });
    // 100,000 bytes declared: 100 s allowed overall; 10 bytes every 100 ms is 100 bytes a second.
    await connection.write(requestHead('POST', '/', { 'Content-Length': 100_000 }));
    const started = Date.now();
    for (let i = 0; i < 40 && !connection.isClosed; i++) {
      await connection.write('A'.repeat(10));
      await pause(100);
    }
    expect(connection.text).toMatch(/^HTTP\/1\.1 408 [\s\S]*arrived slower than 1000 bytes a second over 1 s/);
    expect(Date.now() - started).toBeLessThan(3000);
    expect(await connection.closedWithin(5_000)).toBe(true);
  });

  it('leaves a body arriving faster than the minimum over every window, however long it takes in all', async () => {
    const connection = await start({ bodyBaseMs: 300, bodyMinBytesPerSecond: 1000 }, (req, res) => {
      req.resume();
      req.on('end', () => res.end('whole'));
    });
    await connection.write(requestHead('POST', '/', { 'Content-Length': 9000 }));
    for (let i = 0; i < 15; i++) {
      await connection.write('A'.repeat(600));
      await pause(100);
    }
    await connection.waitForText(/^HTTP\/1\.1 200 [\s\S]*whole$/);
  });

  it('leaves a body that arrived alone, however long the answer takes', async () => {
    const connection = await start({ bodyBaseMs: 200 }, (req, res) => {
      req.resume();
      setTimeout(() => res.end('late'), 600);
    });
    await connection.write(requestHead('POST', '/', { 'Content-Length': 3 }) + 'abc');
    await connection.waitForText(/^HTTP\/1\.1 200 [\s\S]*late$/);
    expect(connection.isClosed).toBe(false);
  });

  it('drops the rest of a refused body for REFUSED_BODY_DRAIN_MS at most, then cuts the connection', async () => {
    const connection = await start({ refusedBodyDrainMs: 500 }, refuseAtOnce);
    await connection.write(requestHead('POST', '/', { 'Content-Length': limitBytes }));
    const started = Date.now();
    for (let i = 0; i < 40 && !connection.isClosed; i++) {
      await connection.write('A');
      await pause(100);
    }
    expect(connection.isClosed).toBe(true);
    expect(Date.now() - started).toBeGreaterThanOrEqual(400);
    expect(connection.text).toMatch(/^HTTP\/1\.1 413 /);
  });

  it('drops a refused body of any size until REFUSED_BODY_DRAIN_MS passes (not at a multiple of the limit), then cuts it', async () => {
    const connection = await start({ refusedBodyDrainMs: 1500 }, refuseAtOnce);
    const total = 4 * 1024 * 1024 * 1024;
    await connection.write(requestHead('POST', '/', { 'Content-Length': total }));
    const chunk = Buffer.alloc(64 * 1024, 'A');
    const started = Date.now();
    let sent = 0;
    while (sent < total && (await connection.write(chunk))) sent += chunk.length;
    // Read far past twice the limit, for the drain's time, then cut before the 4 GB declared.
    expect(sent).toBeGreaterThan(20 * limitBytes);
    expect(sent).toBeLessThan(total);
    expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
    expect(await connection.closedWithin(5000)).toBe(true);
    expect(connection.text).toMatch(/^HTTP\/1\.1 413 /);
  }, 30_000);

  it('keeps the connection when the refused body ends within the bounds', async () => {
    const connection = await start({}, refuseAtOnce);
    await connection.write(requestHead('POST', '/', { 'Content-Length': limitBytes }));
    await connection.write(Buffer.alloc(limitBytes, 'A'));
    await connection.write(requestHead('GET', '/', {}));
    await connection.waitForText(/413 [\s\S]*HTTP\/1\.1 413 /);
    expect(connection.isClosed).toBe(false);
  });
});
