import { waitFor } from '@formcast/testing';
import { basicAuth, pause, RawConnection, requestHead } from './support/raw-http';
import { sideBySide } from './support/side-by-side';
import { systemModes } from './support/start-system';
import { useSystem } from './support/use-system';

/** Short timeouts, so the suite waits seconds, not the defaults' 30 s. */
const env = {
  REQUEST_HEADERS_TIMEOUT_MS: '2000',
  REQUEST_BODY_TIMEOUT_MS: '1500',
  REQUEST_BODY_MIN_BYTES_PER_SECOND: String(1024 * 1024),
  KEEP_ALIVE_TIMEOUT_MS: '1000',
};

describe.each(systemModes)('Request timeouts (%s)', (mode) => {
  const opened: RawConnection[] = [];
  const open = async () => {
    const connection = await RawConnection.open(sys.api.baseUrl);
    opened.push(connection);
    return connection;
  };
  // Declared before useSystem, so it runs before the system stops: a scenario that failed may leave its connection open.
  afterAll(() => {
    for (const connection of opened.splice(0)) connection.destroy();
  });
  const sys = useSystem(mode, { organizations: 1, env, hookTimeoutMs: 120_000 });
  // Each scenario waits on one of the gateway's timers: they run side by side, and each test checks its own.
  const scenario = sideBySide();

  const slowHeaders = scenario(async () => {
    const connection = await open();
    await connection.write('GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n');
    const started = Date.now();
    // A header line now and then, as slowloris does: the time counts from the request's start, not from the last byte.
    const drip = setInterval(() => void connection.write(`X-Slow-${Date.now()}: a\r\n`), 300);
    try {
      const closed = await connection.closedWithin(15_000);
      return { closed, elapsedMs: Date.now() - started, text: connection.text };
    } finally {
      clearInterval(drip);
    }
  });
  it('answers 408 and closes a connection whose headers do not end within REQUEST_HEADERS_TIMEOUT_MS', async () => {
    const { closed, elapsedMs, text } = await slowHeaders();
    expect(closed).toBe(true);
    expect(elapsedMs).toBeGreaterThanOrEqual(1900);
    expect(text).toMatch(/^HTTP\/1\.1 408 /);
  });

  const silent = scenario(async () => (await open()).closedWithin(15_000));
  it('closes a connection that opens and sends nothing', async () => {
    expect(await silent()).toBe(true);
  });

  const shortBody = scenario(async () => {
    const connection = await open();
    const head = requestHead('POST', `/organizations/${sys.org.orgId}/groups.json`, {
      Authorization: basicAuth(sys.org.token),
      'Content-Type': 'application/json',
      'Content-Length': 100,
    });
    await connection.write(`${head}["Stops`);
    await connection.waitForText(/^HTTP\/1\.1 408 /, 15_000);
    const text = connection.text;
    return { text, closed: await connection.closedWithin(5_000) };
  });
  it('answers 408 and closes when a body stops short of its Content-Length', async () => {
    const { text, closed } = await shortBody();
    expect(text).toMatch(/did not arrive within/);
    expect(closed).toBe(true);
  });

  const tricklingBody = scenario(async () => {
    const connection = await open();
    const body = JSON.stringify(['Trickle'.padEnd(200, '.')]);
    const head = requestHead('POST', `/organizations/${sys.org.orgId}/groups.json`, {
      Authorization: basicAuth(sys.org.token),
      'Content-Type': 'application/json',
      'Content-Length': Buffer.byteLength(body),
    });
    await connection.write(head);
    for (let i = 0; i < body.length && !connection.isClosed; i++) {
      await connection.write(body[i]!);
      await pause(100);
    }
    return { text: connection.text, closed: connection.isClosed || (await connection.closedWithin(5_000)) };
  });
  it('answers 408 and closes when a body trickles in slower than its deadline', async () => {
    const { text, closed } = await tricklingBody();
    expect(text).toMatch(/^HTTP\/1\.1 408 /);
    expect(closed).toBe(true);
  });

  it('still takes a body that arrives in time', async () => {
    const name = `In time ${Date.now()}`;
    const res = await sys.api.post(`/organizations/${sys.org.orgId}/groups.json`, { token: sys.org.token, json: [name] });
    expect(res.status).toBe(201);
  });

  const idleKeepAlive = scenario(async () => {
    const connection = await open();
    await connection.write(requestHead('GET', '/healthz', {}));
    await connection.waitForText(/^HTTP\/1\.1 200 [\s\S]*\r\n\r\n/);
    const answer = connection.text;
    // Node's default would keep it 5 s.
    return { answer, closed: await connection.closedWithin(3_500) };
  });
  it('closes an idle keep-alive connection after KEEP_ALIVE_TIMEOUT_MS', async () => {
    const { answer, closed } = await idleKeepAlive();
    expect(answer).not.toMatch(/connection: close/i);
    expect(closed).toBe(true);
  });

  const slowloris = scenario(async () => {
    const slow = await Promise.all(Array.from({ length: 200 }, () => open()));
    await Promise.all(slow.map((connection) => connection.write('GET /healthz HTTP/1.1\r\n')));
    const drip = setInterval(() => {
      for (const connection of slow) void connection.write('X: y\r\n');
    }, 500);
    try {
      const answers: Array<{ status: number; ms: number; stillOpen: number }> = [];
      for (let i = 0; i < 5; i++) {
        const started = Date.now();
        const res = await sys.api.get('/healthz');
        answers.push({ status: res.status, ms: Date.now() - started, stillOpen: slow.filter((c) => !c.isClosed).length });
      }
      await waitFor(() => slow.every((connection) => connection.isClosed), { timeoutMs: 20_000, description: 'every slowloris connection to be closed' });
      const answered408 = slow.filter((connection) => /^HTTP\/1\.1 408 /.test(connection.text)).length;
      return { answers, answered408, healthzAfter: (await sys.api.get('/healthz')).status };
    } finally {
      clearInterval(drip);
    }
  });
  it('drops 200 slowloris connections while /healthz keeps answering', async () => {
    const { answers, answered408, healthzAfter } = await slowloris();
    expect(answers.every((answer) => answer.status === 200)).toBe(true);
    // /healthz answered while the slow connections were held open.
    expect(answers[0]!.stillOpen).toBeGreaterThan(100);
    expect(answered408).toBeGreaterThan(150);
    expect(healthzAfter).toBe(200);
  }, 60_000);
});
