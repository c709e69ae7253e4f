import { Agent, request as httpRequest, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import pino from 'pino';
import { InProcessBus } from '@formcast/bus';
import { createEnvelope, directoryCommands, directoryEvents, pushCommands } from '@formcast/contracts';
import { AppError, hashSecret, redactedPaths, withRequestId, type Logger } from '@formcast/platform';
import { waitFor } from '@formcast/testing';
import { createGatewayApp } from '../src/http/create-app';

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

const tokens = new Map([
  [hashSecret('token-of-org-7'), 7],
  [hashSecret('token-of-org-8'), 8],
  [hashSecret('second-token-of-org-7'), 7],
  [hashSecret('second-token-of-org-8'), 8],
]);
const basic = (token: string) => `Basic ${Buffer.from(`${token}:x`).toString('base64')}`;

describe('the gateway: access log, request ids and API token authentication', () => {
  let lines: string[];
  let logger: Logger;
  let bus: InProcessBus;
  let server: Server;
  let origin: string;
  let authentications: string[];
  /** While set, the push service answers only once it resolves: past the gateway's command timeout. */
  let pushHeldUntil: Promise<void> | undefined;

  beforeAll(async () => {
    lines = [];
    const stream = new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk));
        done();
      },
    });
    // As createLogger makes it (redaction and all), writing into `lines`.
    logger = pino({ level: 'info', name: 'formcast', redact: { paths: redactedPaths, censor: '[redacted]' }, base: { pid: process.pid } }, stream);
    bus = new InProcessBus({ logger: pino({ level: 'silent' }) });
    bus.handleCommand('directory', directoryCommands.authenticateToken, async (command) => {
      const { tokenHash } = command.payload as { tokenHash: string };
      authentications.push(tokenHash);
      const orgId = tokens.get(tokenHash);
      if (orgId === undefined) throw new AppError('unauthorized', 'Unknown API token');
      return { orgId };
    });
    bus.handleCommand('push', pushCommands.createOneshot, async (command) => {
      await pushHeldUntil;
      return { id: 1, namespace: `ns-of-org-${command.orgId}`, name: 'Inspection' };
    });
    await bus.start();
    const app = createGatewayApp({ bus, logger, adminToken: 'admin-token-0123456789abcdef', commandTimeoutMs: 100, bodyLimitBytes: 1 << 20 });
    server = await new Promise((resolve) => {
      const s = app.listen(0, '127.0.0.1', () => resolve(s));
    });
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await bus.close();
  });

  beforeEach(() => {
    lines.length = 0;
    authentications = [];
    pushHeldUntil = undefined;
  });

  /** One keep-alive connection for every request made with it, as an integrator's client keeps one. */
  function connection() {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const sockets = new Set<unknown>();
    const send = (path: string, headers: Record<string, string>, body?: string) =>
      new Promise<Answer>((resolve, reject) => {
        const req = httpRequest(`${origin}${path}`, { method: body === undefined ? 'GET' : 'POST', headers, agent }, (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => (text += chunk));
          res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: text }));
        });
        req.on('socket', (socket) => sockets.add(socket));
        req.on('error', reject);
        req.end(body);
      });
    const push = (authorization: string | undefined, extra: Record<string, string> = {}) =>
      send('/clients/Android_1/oneshots.json', { 'content-type': 'application/json', ...(authorization ? { authorization } : {}), ...extra }, '{"form_namespace":"ns","payload":{}}');
    return { send, push, sockets, close: () => agent.destroy() };
  }

  const accessLines = () => lines.map((line) => JSON.parse(line) as Record<string, unknown>).filter((line) => line['msg'] === 'request');

  it('writes one access line per request, exactly as a request logger would', async () => {
    const client = connection();
    try {
      const answers = [
        await client.push(basic('token-of-org-7'), { 'x-request-id': 'given-id.1:2-3' }),
        await client.push(basic('token-of-org-7')),
        await client.send('/healthz', {}),
        await client.push(undefined),
        await client.send('/no/such/"path"', {}),
      ];
      await waitFor(() => accessLines().length === answers.length);
      const written = lines.filter((line) => JSON.parse(line).msg === 'request');
      expect(written).toHaveLength(answers.length);
      for (const [i, line] of written.entries()) {
        const fields = JSON.parse(line) as Record<string, unknown>;
        const authenticated = answers[i]!.status === 202;
        expect(Object.keys(fields)).toEqual(['level', 'time', 'pid', 'name', 'requestId', 'method', 'path', ...(authenticated ? ['orgId'] : []), 'status', 'ms', 'msg']);
        expect(fields).toMatchObject({ level: 30, pid: process.pid, name: 'formcast', status: answers[i]!.status, msg: 'request' });
        if (answers[i]!.headers['x-request-id'] !== undefined) expect(fields['requestId']).toBe(answers[i]!.headers['x-request-id']);
        expect(typeof fields['ms']).toBe('number');
        // Byte for byte what the request's own (redacting) logger writes with those fields.
        const again: string[] = [];
        const twin = pino({ name: 'formcast', redact: { paths: redactedPaths, censor: '[redacted]' }, base: { pid: process.pid }, timestamp: () => `,"time":${fields['time']}` }, {
          write: (l: string) => void again.push(l),
        });
        const { requestId, method, path, orgId, status, ms } = fields;
        withRequestId(twin, requestId as string).info({ method, path, orgId, status, ms }, 'request');
        expect(line).toBe(again[0]);
      }
      expect(written[0]).toContain('"requestId":"given-id.1:2-3"');
      // The path as requested (the push router is mounted on /clients), and the organization once known.
      expect(accessLines().map((line) => [line['path'], line['orgId']])).toEqual([
        ['/clients/Android_1/oneshots.json', 7],
        ['/clients/Android_1/oneshots.json', 7],
        ['/healthz', undefined],
        ['/clients/Android_1/oneshots.json', undefined],
        ['/no/such/%22path%22', undefined],
      ]);
      expect(answers.map((a) => a.status)).toEqual([202, 202, 200, 401, 404]);
    } finally {
      client.close();
    }
  });

  it("keeps the caller's sane X-Request-Id and makes one up otherwise", async () => {
    const client = connection();
    try {
      expect((await client.send('/healthz', { 'x-request-id': 'abc-123' })).headers['x-request-id']).toBe('abc-123');
      const madeUp = (await client.send('/healthz', { 'x-request-id': 'not sane!' })).headers['x-request-id'];
      expect(madeUp).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      expect((await client.send('/healthz', {})).headers['x-request-id']).not.toBe(madeUp);
    } finally {
      client.close();
    }
  });

  it("stamps the request id on the request's other lines", async () => {
    const client = connection();
    let releasePush = () => {};
    pushHeldUntil = new Promise((resolve) => (releasePush = resolve));
    try {
      const answer = await client.push(basic('token-of-org-7'), { 'x-request-id': 'slow-one' });
      expect(answer.status).toBe(504);
      await waitFor(() => accessLines().length === 1);
      const failed = lines.map((line) => JSON.parse(line)).find((line) => line.msg === 'request failed');
      expect(failed).toMatchObject({ requestId: 'slow-one', code: 'timeout', level: 40 });
    } finally {
      releasePush();
      client.close();
    }
  });

  it('authenticates each token of a connection as its own, and a cached one without asking again', async () => {
    const client = connection();
    try {
      expect(JSON.parse((await client.push(basic('second-token-of-org-7'))).body).oneshot_list[0].namespace).toBe('ns-of-org-7');
      expect(JSON.parse((await client.push(basic('second-token-of-org-7'))).body).oneshot_list[0].namespace).toBe('ns-of-org-7');
      expect(authentications).toEqual([hashSecret('second-token-of-org-7')]);

      // Another token on the same connection is another organization (each asked for once, then cached).
      expect(JSON.parse((await client.push(basic('second-token-of-org-8'))).body).oneshot_list[0].namespace).toBe('ns-of-org-8');
      expect(JSON.parse((await client.push(basic('second-token-of-org-7'))).body).oneshot_list[0].namespace).toBe('ns-of-org-7');
      expect(authentications).toEqual([hashSecret('second-token-of-org-7'), hashSecret('second-token-of-org-8')]);

      // An unknown token, a malformed header and none at all are refused on it as well.
      const unknown = await client.push(basic('no-such-token'));
      expect(unknown.status).toBe(401);
      expect(unknown.headers['www-authenticate']).toBe('Basic realm="Formcast API"');
      expect((await client.push('Basic !!!')).status).toBe(401);
      expect((await client.push(undefined)).status).toBe(401);
      expect((await client.push(basic('second-token-of-org-8'))).status).toBe(202);
      expect(client.sockets.size).toBe(1);
    } finally {
      client.close();
    }
  });

  it('asks the directory again once the organization revoked a token, on the same connection too', async () => {
    const client = connection();
    try {
      await client.push(basic('token-of-org-8'));
      await client.push(basic('token-of-org-8'));
      const before = authentications.length;
      await bus.publish(createEnvelope(directoryEvents.tokenRevoked, { orgId: 8, tokenId: 1 }, { orgId: 8 }));
      tokens.delete(hashSecret('token-of-org-8'));
      await waitFor(async () => (await client.push(basic('token-of-org-8'))).status === 401);
      expect(authentications.length).toBeGreaterThan(before);
      expect(client.sockets.size).toBe(1);
    } finally {
      tokens.set(hashSecret('token-of-org-8'), 8);
      client.close();
    }
  });
});
