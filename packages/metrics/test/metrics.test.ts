import {
  configureMetrics,
  parseExposition,
  recordCommand,
  recordFcmSend,
  recordHttpRequest,
  renderMetrics,
  sampleValue,
  startMetricsServer,
  watchDeadLetters,
  watchOutbox,
  type Sample,
} from '../src';

async function scrape(): Promise<Sample[]> {
  return parseExposition((await renderMetrics()).body);
}

afterEach(() => configureMetrics({ enabled: true }));

describe('the exposition', () => {
  it('counts HTTP requests by route template, method and status, with their latency', async () => {
    const labels = { route: '/test/:id', method: 'POST' };
    const before = await scrape();
    recordHttpRequest('/test/:id', 'POST', 202, 0.004);
    recordHttpRequest('/test/:id', 'POST', 202, 0.02);
    recordHttpRequest('/test/:id', 'POST', 400, 0.001);
    const after = await scrape();
    const delta = (name: string, l: Record<string, string>) => sampleValue(after, name, l) - sampleValue(before, name, l);
    expect(delta('formcast_http_requests_total', { ...labels, status: '202' })).toBe(2);
    expect(delta('formcast_http_requests_total', { ...labels, status: '400' })).toBe(1);
    expect(delta('formcast_http_request_duration_seconds_count', labels)).toBe(3);
    expect(delta('formcast_http_request_duration_seconds_bucket', { ...labels, le: '0.005' })).toBe(2);
  });

  it('puts an observation on a bucket\'s bound into that bucket, and past the last bound into +Inf only', async () => {
    const labels = { route: '/bounds', method: 'GET' };
    recordHttpRequest('/bounds', 'GET', 200, 0.005);
    recordHttpRequest('/bounds', 'GET', 200, 60);
    const samples = await scrape();
    const bucket = (le: string) => sampleValue(samples, 'formcast_http_request_duration_seconds_bucket', { ...labels, le });
    expect([bucket('0.0025'), bucket('0.005'), bucket('10'), bucket('+Inf')]).toEqual([0, 1, 1, 2]);
    expect(sampleValue(samples, 'formcast_http_request_duration_seconds_sum', labels)).toBeCloseTo(60.005);
  });

  it('labels a command round trip ok or with the error code', async () => {
    const before = await scrape();
    recordCommand('test.thing.do', performance.now());
    recordCommand('test.thing.do', performance.now(), Object.assign(new Error('late'), { code: 'timeout' }));
    recordCommand('test.thing.do', performance.now(), new Error('no code'));
    const after = await scrape();
    for (const outcome of ['ok', 'timeout', 'error']) {
      const labels = { command: 'test.thing.do', outcome };
      const count = 'formcast_bus_command_duration_seconds_count';
      expect(sampleValue(after, count, labels) - sampleValue(before, count, labels)).toBe(1);
    }
  });

  it('records nothing while metrics are off', async () => {
    const before = sampleValue(await scrape(), 'formcast_fcm_sends_total', { outcome: 'sent' });
    configureMetrics({ enabled: false });
    recordFcmSend('sent');
    configureMetrics({ enabled: true });
    recordFcmSend('sent');
    expect(sampleValue(await scrape(), 'formcast_fcm_sends_total', { outcome: 'sent' })).toBe(before + 1);
  });

  it('adds the process\'s default metrics once configured on', async () => {
    configureMetrics({ enabled: true });
    const names = new Set((await scrape()).map((s) => s.name));
    expect(names).toContain('process_cpu_user_seconds_total');
    expect(names).toContain('nodejs_eventloop_lag_seconds');
  });
});

describe('gauges read when scraped', () => {
  it('reads dead-letter depth from its sources, leaving out a failing one, until unwatched', async () => {
    const unwatchA = watchDeadLetters('test-a', async () => 3);
    const unwatchB = watchDeadLetters('test-b', () => Promise.reject(new Error('broker away')));
    const samples = await scrape();
    expect(sampleValue(samples, 'formcast_bus_dead_letters', { consumer: 'test-a' })).toBe(3);
    expect(samples.some((s) => s.name === 'formcast_bus_dead_letters' && s.labels.consumer === 'test-b')).toBe(false);
    unwatchA();
    unwatchB();
    expect((await scrape()).some((s) => s.name === 'formcast_bus_dead_letters' && s.labels.consumer === 'test-a')).toBe(false);
  });

  it('gives the outbox backlog and the age of its oldest event', async () => {
    const unwatch = watchOutbox(async () => ({ count: 7, oldestOccurredAt: new Date(Date.now() - 90_000).toISOString() }));
    await new Promise((resolve) => setTimeout(resolve, 1100)); // past the previous scrape's shared read
    const samples = await scrape();
    unwatch();
    expect(sampleValue(samples, 'formcast_outbox_backlog')).toBe(7);
    const age = sampleValue(samples, 'formcast_outbox_oldest_age_seconds');
    expect(age).toBeGreaterThanOrEqual(90);
    expect(age).toBeLessThan(150);
  });
});

describe('startMetricsServer', () => {
  it('serves /metrics only, and 404 while metrics are off', async () => {
    const server = await startMetricsServer(0);
    try {
      const ok = await fetch(`http://127.0.0.1:${server.port}/metrics`);
      expect(ok.status).toBe(200);
      expect(ok.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
      expect(parseExposition(await ok.text()).length).toBeGreaterThan(0);
      expect((await fetch(`http://127.0.0.1:${server.port}/other`)).status).toBe(404);
      configureMetrics({ enabled: false });
      expect((await fetch(`http://127.0.0.1:${server.port}/metrics`)).status).toBe(404);
    } finally {
      await server.close();
    }
  });
});

describe('parseExposition', () => {
  it('reads labels with escaped characters and skips comments', () => {
    const samples = parseExposition('# HELP x y\n# TYPE x counter\nx{a="q\\"uote",b="back\\\\slash"} 2\ny 1.5e3\n');
    expect(samples).toEqual([
      { name: 'x', labels: { a: 'q"uote', b: 'back\\slash' }, value: 2 },
      { name: 'y', labels: {}, value: 1500 },
    ]);
  });

  it('refuses what is not a sample', () => {
    expect(() => parseExposition('not a sample line at all {')).toThrow(/Not a sample line/);
  });
});
