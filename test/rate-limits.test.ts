import { request as httpRequest } from 'node:http';
import { enrollDevice, type TestDevice } from './support/fixtures';
import { systemModes } from './support/start-system';
import { useSystem } from './support/use-system';

/** Small buckets, so the tests reach them in a few requests; each test speaks from a loopback address of its own. */
const limits = {
  RATE_LIMIT_ORGANIZATION_PER_SECOND: '2',
  RATE_LIMIT_ORGANIZATION_BURST: '20',
  RATE_LIMIT_DEVICE_PER_SECOND: '1',
  RATE_LIMIT_DEVICE_BURST: '6',
  RATE_LIMIT_ADDRESS_PER_SECOND: '1',
  RATE_LIMIT_ADDRESS_BURST: '12',
  RATE_LIMIT_ENROLLMENT_PER_SECOND: '1',
  RATE_LIMIT_ENROLLMENT_BURST: '8',
  RATE_LIMIT_ENROLLMENT_FAILURES: '4',
  RATE_LIMIT_ENROLLMENT_FAILURES_WINDOW_SECONDS: '600',
};

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

/** A request from the loopback address `from` (127.0.0.2, …): the gateway sees that client address. */
function requestFrom(from: string, base: string, method: string, path: string, options: { json?: unknown; headers?: Record<string, string> } = {}): Promise<Answer> {
  const url = new URL(path, base);
  const body = options.json === undefined ? undefined : JSON.stringify(options.json);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port: url.port,
        path: url.pathname,
        method,
        localAddress: from,
        agent: false,
        headers: { ...(body ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } : {}), ...options.headers },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}


describe.each(systemModes)('Rate limits: 429 with Retry-After and RateLimit headers, per organization, device and client address (%s)', (mode) => {
  const sys = useSystem(mode, { organizations: 3, env: limits });
  const base = () => sys.api.baseUrl;

  it('limits one organization: past its bucket 429 with Retry-After, RateLimit and RateLimit-Policy; another organization is served and its data unchanged', async () => {
    const [flooder, other] = sys.orgs;
    const path = (org: typeof flooder) => `/organizations/${org.orgId}/groups.json`;
    const otherBefore = (await sys.api.get(path(other), { token: other.token })).text;
    const names = Array.from({ length: 40 }, (_, n) => `Flood team ${n}`);
    const answers = await Promise.all(names.map((name) => sys.api.post(path(flooder), { token: flooder.token, json: [name] })));
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 201).length).toBeGreaterThanOrEqual(20);
    expect(statuses.filter((s) => s !== 201 && s !== 429)).toEqual([]);
    const limited = answers.find((a) => a.status === 429)!;
    expect(limited).toBeDefined();
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(limited.headers.get('ratelimit-policy')).toBe('"organization";q=20;w=10');
    expect(limited.headers.get('ratelimit')).toMatch(/^"organization";r=0;t=\d+$/);
    expect(limited.json()).toMatchObject({ status: '429', error: 'Too Many Requests', message: expect.stringMatching(/organization rate limit/) });
    // A request answered has the headers too.
    expect(answers.find((a) => a.status === 201)!.headers.get('ratelimit')).toMatch(/^"organization";r=\d+;t=\d+$/);
    // The other organization is served at once, and nothing of its changed.
    const theirs = await sys.api.get(path(other), { token: other.token });
    expect(theirs.status).toBe(200);
    expect(theirs.text).toBe(otherBefore);
    // Refused creates did nothing: exactly the groups answered 201 exist.
    await new Promise((resolve) => setTimeout(resolve, 1000 * Number(limited.headers.get('retry-after'))));
    const listed = (await sys.api.get(path(flooder), { token: flooder.token })).text;
    names.forEach((name, n) => expect([name, listed.includes(`"${name}"`)]).toEqual([name, answers[n]!.status === 201]));
  });

  it('limits wrong enrollment codes per client address (429 with Retry-After once they are spent); a taken identifier counts the same; other addresses enroll', async () => {
    const [org, other] = sys.orgs;
    const from = '127.0.0.2';
    const enroll = (code: string, identifier: string, address = from) =>
      requestFrom(address, base(), 'POST', '/devices/enroll', { json: { enrollment_code: code, identifier } });
    const taken = await enrollDevice(sys.api, org);
    const devicesBefore = (await sys.api.get(`/organizations/${other.orgId}/devices.json`, { token: other.token })).text;
    for (let n = 0; n < 3; n += 1) expect((await enroll(`wrong-${n}`, `Android_w${n}`)).status).toBe(403);
    // The identifier taken: the same 403 as a wrong code, and counted as one.
    const takenAnswer = await enroll(org.enrollmentCode, taken.identifier);
    expect(takenAnswer.status).toBe(403);
    const limited = await enroll('wrong-again', 'Android_w9');
    expect(limited.status).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(500);
    // The right code from that address is refused too, until the window passes.
    expect((await enroll(org.enrollmentCode, 'Android_right1')).status).toBe(429);
    // Another address enrolls.
    expect((await enroll(org.enrollmentCode, 'Android_right2', '127.0.0.3')).status).toBe(201);
    expect((await sys.api.get(`/organizations/${other.orgId}/devices.json`, { token: other.token })).text).toBe(devicesBefore);
  });

  it('limits enrollments per client address, right codes too', async () => {
    const [org] = sys.orgs;
    const from = '127.0.0.4';
    const answers = await Promise.all(
      Array.from({ length: 14 }, (_, n) => requestFrom(from, base(), 'POST', '/devices/enroll', { json: { enrollment_code: org.enrollmentCode, identifier: `Android_many${n}` } })),
    );
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 201).length).toBeGreaterThanOrEqual(8);
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(1);
    expect(statuses.filter((s) => s !== 201 && s !== 429)).toEqual([]);
    // Some refused by the enrollment bucket (8); the last of the 14 may meet the address bucket (12) first,
    // and on a slow machine the answers' order is not the order they were taken in.
    expect(answers.filter((a) => a.status === 429).map((a) => a.headers['ratelimit-policy'])).toContain('"enrollment";q=8;w=8');
  });

  it('limits device-side requests per device; another device is served', async () => {
    const org = sys.orgs[2];
    const device = await enrollDevice(sys.api, org);
    const second = await enrollDevice(sys.api, org);
    const oneshots = (d: TestDevice, from: string) => requestFrom(from, base(), 'GET', '/device/oneshots', { headers: { authorization: `Bearer ${d.secret}` } });
    const answers = await Promise.all(Array.from({ length: 10 }, () => oneshots(device, '127.0.0.5')));
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 200).length).toBeGreaterThanOrEqual(6);
    expect(statuses.filter((s) => s !== 200 && s !== 429)).toEqual([]);
    const limited = answers.find((a) => a.status === 429)!;
    expect(limited.headers['ratelimit']).toMatch(/^"device";r=0;t=\d+$/);
    expect((await oneshots(second, '127.0.0.6')).status).toBe(200);
  });

  it('limits device-side requests per client address, whatever the device (before authentication)', async () => {
    const statuses: number[] = [];
    for (let n = 0; n < 16; n += 1) {
      statuses.push((await requestFrom('127.0.0.7', base(), 'GET', '/device/oneshots', { headers: { authorization: `Bearer forged-${n}` } })).status);
    }
    expect(statuses.slice(0, 12).every((s) => s === 401)).toBe(true);
    expect(statuses.slice(13)).toContain(429);
  });
});
