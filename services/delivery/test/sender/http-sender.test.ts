import type { LookupAddress } from 'node:dns';
import { createServer as createTcpServer, type AddressInfo, type Socket } from 'node:net';
import { waitFor } from '@formcast/testing';
import { uriRefusal, type Resolver } from '../../src/sender/address-guard';
import { HttpSender, keptAnswerBytes } from '../../src/sender/http-sender';
import { closedPort, startReceiver, type LocalReceiver } from './local-receiver';

const delivery = (uri: string) => ({ uri, headers: { 'content-type': 'application/json', 'x-custom': 'yes' }, body: '{"n":1}' });

describe('HttpSender against real local receivers', () => {
  const receivers: LocalReceiver[] = [];
  const senders: HttpSender[] = [];
  const receiver = async (...args: Parameters<typeof startReceiver>) => {
    const started = await startReceiver(...args);
    receivers.push(started);
    return started;
  };
  const sender = (options: Partial<ConstructorParameters<typeof HttpSender>[0]> = {}) => {
    const created = new HttpSender({ timeoutMs: 2000, allowPrivateNetworks: true, ...options });
    senders.push(created);
    return created;
  };

  afterEach(async () => {
    await Promise.all(senders.splice(0).map((s) => s.close()));
    await Promise.all(receivers.splice(0).map((r) => r.close()));
  });

  it('POSTs the body with its headers and keeps the answer', async () => {
    const good = await receiver((_, res) => {
      res.writeHead(202, { 'content-type': 'text/plain' });
      res.end('thanks');
    });
    const answer = await sender().send(delivery(good.url));
    expect(answer).toMatchObject({ statusCode: 202, responseBody: 'thanks', error: null });
    expect(answer.durationMs).toBeGreaterThanOrEqual(0);
    expect(good.received).toHaveLength(1);
    expect(good.received[0]).toMatchObject({ method: 'POST', url: '/hook', body: '{"n":1}' });
    expect(good.received[0]!.headers).toMatchObject({ 'content-type': 'application/json', 'x-custom': 'yes' });
  });

  it('reports a receiver that is down', async () => {
    const answer = await sender().send(delivery(`http://127.0.0.1:${await closedPort()}/hook`));
    expect(answer).toMatchObject({ statusCode: null, responseBody: null });
    expect(answer.error).toMatch(/ECONNREFUSED/);
  });

  it('reports each answer of a receiver that fails, then recovers', async () => {
    const flaky = await receiver((_, res, index) => {
      res.statusCode = index === 0 ? 500 : 200;
      res.end(index === 0 ? 'down for a moment' : 'fine');
    });
    const s = sender();
    expect(await s.send(delivery(flaky.url))).toMatchObject({ statusCode: 500, responseBody: 'down for a moment', error: null });
    expect(await s.send(delivery(flaky.url))).toMatchObject({ statusCode: 200, responseBody: 'fine', error: null });
  });

  it('sends again on a new connection when the kept-alive one was closed while idle', async () => {
    // A receiver that answers the first request on a connection and resets that connection
    // when it is used again, as a server whose keep-alive timeout ran out meanwhile.
    const connections: Socket[] = [];
    const requests: number[] = [];
    const server = createTcpServer((socket) => {
      const connection = connections.push(socket) - 1;
      let answered = false;
      socket.on('data', () => {
        if (answered) return void socket.resetAndDestroy();
        answered = true;
        requests.push(connection);
        const body = connection === 0 ? 'down' : 'fine';
        socket.write(`HTTP/1.1 ${connection === 0 ? '500 Internal Server Error' : '200 OK'}\r\nContent-Length: ${body.length}\r\nConnection: keep-alive\r\n\r\n${body}`);
      });
      socket.on('error', () => undefined);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
      const s = sender();
      expect(await s.send(delivery(url))).toMatchObject({ statusCode: 500, responseBody: 'down', error: null });
      expect(await s.send(delivery(url))).toMatchObject({ statusCode: 200, responseBody: 'fine', error: null });
      expect(connections.length).toBe(2);
      expect(requests).toEqual([0, 1]);
    } finally {
      for (const socket of connections) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('gives up on a slow receiver at the timeout', async () => {
    const slow = await receiver(() => undefined); // never answers
    const started = Date.now();
    const answer = await sender({ timeoutMs: 300 }).send(delivery(slow.url));
    expect(answer).toMatchObject({ statusCode: null, responseBody: null, error: 'no answer within 300 ms' });
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('gives up on an answer whose body stalls at the timeout, keeping its status', async () => {
    const stalls = await receiver((_, res) => {
      res.writeHead(200);
      res.write('partial');
    });
    const answer = await sender({ timeoutMs: 300 }).send(delivery(stalls.url));
    expect(answer).toMatchObject({ statusCode: 200, error: 'no answer within 300 ms' });
  });

  it('reports a 410', async () => {
    const gone = await receiver((_, res) => {
      res.statusCode = 410;
      res.end('gone');
    });
    expect(await sender().send(delivery(gone.url))).toMatchObject({ statusCode: 410, responseBody: 'gone', error: null });
  });

  it('does not follow a redirect', async () => {
    const target = await receiver();
    const redirecting = await receiver((_, res) => {
      res.writeHead(307, { location: target.url });
      res.end();
    });
    const answer = await sender().send(delivery(redirecting.url));
    expect(answer).toMatchObject({ statusCode: 307, error: `redirects are not followed (Location: ${target.url})` });
    expect(target.received).toHaveLength(0);
  });

  it('reads only the first 1 KB of a 10 MB answer and closes the connection', async () => {
    const total = 10 * 1024 * 1024;
    let written = 0;
    let finished = false;
    let closed = false;
    const huge = await receiver((_, res) => {
      res.writeHead(200, { 'content-length': String(total) });
      const chunk = Buffer.alloc(64 * 1024, 'x');
      const writeMore = () => {
        while (written < total && !res.destroyed) {
          written += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', writeMore);
        }
        if (written >= total) res.end(() => (finished = true));
      };
      res.on('close', () => (closed = true));
      writeMore();
    });
    const answer = await sender().send(delivery(huge.url));
    expect(answer).toMatchObject({ statusCode: 200, error: null });
    expect(Buffer.byteLength(answer.responseBody!)).toBe(keptAnswerBytes);
    await waitFor(() => closed, { description: 'the receiver to see its connection closed' });
    expect(finished).toBe(false);
    expect(written).toBeLessThan(total);
  });

  it('refuses a private address without DELIVERY_ALLOW_PRIVATE_NETWORKS, and sends nothing', async () => {
    const good = await receiver();
    const strict = sender({ allowPrivateNetworks: false });
    expect(await strict.send(delivery(good.url))).toMatchObject({
      statusCode: null,
      error: '127.0.0.1 is a loopback address; set DELIVERY_ALLOW_PRIVATE_NETWORKS=true to allow private networks',
    });
    const byName = await strict.send(delivery(`http://localhost:${good.port}/hook`));
    expect(byName.error).toMatch(/^localhost resolves to (127\.0\.0\.1|::1) is a loopback address; set DELIVERY_ALLOW_PRIVATE_NETWORKS=true/);
    expect(good.received).toHaveLength(0);
  });

  it('checks the address again when connecting, so a name rebound to a private address reaches nothing', async () => {
    const good = await receiver();
    let lookups = 0;
    // DNS that answers a public address first (when the destination is saved), then loopback.
    const rebinding: Resolver = async (): Promise<LookupAddress[]> => {
      lookups += 1;
      return lookups === 1 ? [{ address: '93.184.215.14', family: 4 }] : [{ address: '127.0.0.1', family: 4 }];
    };
    const uri = `http://hooks.rebind.test:${good.port}/hook`;
    expect(await uriRefusal(uri, false, rebinding)).toBeNull();
    const answer = await sender({ allowPrivateNetworks: false, resolve: rebinding }).send(delivery(uri));
    expect(answer.error).toBe('hooks.rebind.test resolves to 127.0.0.1 is a loopback address; set DELIVERY_ALLOW_PRIVATE_NETWORKS=true to allow private networks');
    expect(good.received).toHaveLength(0);
  });

  it('sends to a URI whose scheme is in upper case (HTTP://), as it was saved', async () => {
    const good = await receiver();
    const answer = await sender().send(delivery(good.url.replace(/^http:/, 'HTTP:')));
    expect(answer).toMatchObject({ statusCode: 200, error: null });
    expect(good.received).toHaveLength(1);
  });

  it('refuses, when connecting, an IPv6 address that carries a refused IPv4 one (IPv4-compatible, NAT64, 6to4, Teredo)', async () => {
    const good = await receiver();
    const strict = sender({ allowPrivateNetworks: false });
    expect((await strict.send(delivery(`http://[::127.0.0.1]:${good.port}/hook`))).error).toMatch(/127\.0\.0\.1 is a loopback address/);
    for (const carrier of ['::a9fe:a9fe', '64:ff9b::a9fe:a9fe', '2002:a9fe:a9fe::1', '2001:0:4136:e378::5601:5601']) {
      const resolvesToCarrier: Resolver = async () => [{ address: carrier, family: 6 }];
      const answer = await sender({ allowPrivateNetworks: true, resolve: resolvesToCarrier }).send(delivery(`http://carrier.test:${good.port}/hook`));
      expect(answer.error).toBe('carrier.test resolves to 169.254.169.254 is a cloud metadata address, which destinations may never reach');
    }
    expect(good.received).toHaveLength(0);
  });

  it('connects through the lookup to an allowed address', async () => {
    const good = await receiver();
    const local: Resolver = async () => [{ address: '127.0.0.1', family: 4 }];
    const answer = await sender({ resolve: local }).send(delivery(`http://receiver.test:${good.port}/hook`));
    expect(answer).toMatchObject({ statusCode: 200, error: null });
    expect(good.received[0]!.headers['host']).toBe(`receiver.test:${good.port}`);
  });
});

describe('checking a destination URI when it is saved', () => {
  it('refuses literal private addresses and names resolving to them, naming the setting', async () => {
    expect(await uriRefusal('http://10.1.2.3/hook', false)).toBe('10.1.2.3 is a private address; set DELIVERY_ALLOW_PRIVATE_NETWORKS=true to allow private networks');
    expect(await uriRefusal('http://[::1]:8080/hook', false)).toMatch(/^::1 is a loopback address/);
    expect(await uriRefusal('http://10.1.2.3/hook', true)).toBeNull();
    expect(await uriRefusal('http://169.254.169.254/latest/meta-data', true)).toMatch(/cloud metadata/);
    const resolver: Resolver = async () => [
      { address: '93.184.215.14', family: 4 },
      { address: '192.168.0.9', family: 4 },
    ];
    expect(await uriRefusal('https://mixed.example.test/hook', false, resolver)).toBe(
      'mixed.example.test resolves to 192.168.0.9 is a private address; set DELIVERY_ALLOW_PRIVATE_NETWORKS=true to allow private networks',
    );
  });

  it('refuses IPv4-compatible and other embedded-IPv4 literals by the IPv4 address they carry', async () => {
    expect(await uriRefusal('http://[::a9fe:a9fe]/', true)).toMatch(/169\.254\.169\.254 is a cloud metadata address/);
    expect(await uriRefusal('http://[::169.254.169.254]/', true)).toMatch(/cloud metadata/);
    expect(await uriRefusal('http://[::127.0.0.1]/', false)).toMatch(/127\.0\.0\.1 is a loopback address/);
    expect(await uriRefusal('HTTPS://[::ffff:10.0.0.1]/', false)).toMatch(/^::ffff:a00:1 is a private address/);
  });

  it('refuses a name that does not resolve', async () => {
    const nowhere: Resolver = async () => {
      throw Object.assign(new Error('getaddrinfo ENOTFOUND nowhere.test'), { code: 'ENOTFOUND' });
    };
    expect(await uriRefusal('https://nowhere.test/hook', false, nowhere)).toBe('nowhere.test does not resolve (ENOTFOUND)');
  });
});
