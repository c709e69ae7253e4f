import autocannon = require('autocannon');

/** One HTTP load, as every scenario describes it to the one load generator (autocannon). */
export interface LoadSpec {
  /** `http://127.0.0.1:<port>` */
  origin: string;
  method: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  /** The path of the n-th request (n counts from 0 across all connections). */
  path: (n: number) => string;
  /** Headers and body of the n-th request, when they differ from one request to the next; called as it is sent. */
  perRequest?: (n: number) => { headers?: Record<string, string>; body?: string };
  connections: number;
  /** Seconds of load; or `amount` requests. */
  durationS?: number;
  amount?: number;
  /** The status every answer should have (default: any 2xx). */
  expectStatus?: number;
}

export interface LoadResult {
  /** Answers with the expected status a second, over the whole run. */
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  /** Answers with the expected status. */
  ok: number;
  /** Other statuses, connection errors and timeouts. */
  failed: number;
  statuses: Record<string, number>;
  seconds: number;
  /** Every answer's latency, ms, for combining runs. */
  latencies: LatencyLog;
}

/** Latencies in ms, kept whole (autocannon's histogram rounds to 1 ms; these keep microseconds). */
export class LatencyLog {
  private values = new Float64Array(1 << 16);
  private size = 0;

  add(ms: number): void {
    if (this.size === this.values.length) {
      const bigger = new Float64Array(this.values.length * 2);
      bigger.set(this.values);
      this.values = bigger;
    }
    this.values[this.size++] = ms;
  }

  percentile(p: number): number {
    if (this.size === 0) return NaN;
    const sorted = this.values.slice(0, this.size).sort();
    const index = Math.min(this.size - 1, Math.max(0, Math.ceil((p / 100) * this.size) - 1));
    return sorted[index]!;
  }

  addAll(other: LatencyLog): void {
    for (let i = 0; i < other.size; i++) this.add(other.values[i]!);
  }

  max(): number {
    let max = 0;
    for (let i = 0; i < this.size; i++) max = Math.max(max, this.values[i]!);
    return max;
  }
}

export function runLoad(spec: LoadSpec): Promise<LoadResult> {
  let n = 0;
  const latencies = new LatencyLog();
  const statuses: Record<string, number> = {};
  let ok = 0;
  const expected = (status: number) => (spec.expectStatus ? status === spec.expectStatus : status >= 200 && status < 300);
  const started = process.hrtime.bigint();
  let firstResponseAt: bigint | null = null;
  let lastResponseAt = started;

  return new Promise((resolve, reject) => {
    const instance = autocannon(
      {
        url: spec.origin,
        connections: spec.connections,
        ...(spec.amount ? { amount: spec.amount } : { duration: spec.durationS ?? 10 }),
        timeout: 30,
        requests: [
          {
            method: spec.method,
            headers: { ...(spec.body ? { 'content-type': 'application/json' } : {}), ...spec.headers },
            ...(spec.body ? { body: spec.body } : {}),
            setupRequest: (request) => {
              const i = n++;
              const own = spec.perRequest?.(i);
              return { ...request, path: spec.path(i), ...(own?.body !== undefined ? { body: own.body } : {}), headers: { ...request.headers, ...own?.headers } };
            },
          },
        ],
      },
      (error, result) => {
        if (error) {
          reject(error);
          return;
        }
        const seconds = Number(lastResponseAt - (firstResponseAt ?? started)) / 1e9 || result.duration;
        const failed = result.errors + result.timeouts + Object.entries(statuses).reduce((s, [code, count]) => s + (expected(Number(code)) ? 0 : count), 0);
        resolve(resultOf({ ok, failed, statuses, seconds, latencies }));
      },
    );
    instance.on('response', (_client: unknown, statusCode: number, _bytes: number, responseTime: number) => {
      const now = process.hrtime.bigint();
      firstResponseAt ??= now - BigInt(Math.round(responseTime * 1e6));
      lastResponseAt = now;
      statuses[statusCode] = (statuses[statusCode] ?? 0) + 1;
      if (expected(statusCode)) {
        ok++;
        latencies.add(responseTime);
      }
    });
  });
}

/** Several runs of one scenario as one: answers over seconds, percentiles over every answer. */
export function combine(results: LoadResult[]): LoadResult {
  const latencies = new LatencyLog();
  const statuses: Record<string, number> = {};
  let ok = 0;
  let failed = 0;
  let seconds = 0;
  for (const result of results) {
    latencies.addAll(result.latencies);
    for (const [code, count] of Object.entries(result.statuses)) statuses[code] = (statuses[code] ?? 0) + count;
    ok += result.ok;
    failed += result.failed;
    seconds += result.seconds;
  }
  return resultOf({ ok, failed, statuses, seconds, latencies });
}

/** The rate and percentiles of what was counted. */
function resultOf(counted: Pick<LoadResult, 'ok' | 'failed' | 'statuses' | 'seconds' | 'latencies'>): LoadResult {
  const { ok, seconds, latencies } = counted;
  return {
    ...counted,
    requestsPerSecond: ok / Math.max(seconds, 1e-9),
    p50Ms: latencies.percentile(50),
    p99Ms: latencies.percentile(99),
    maxMs: latencies.max(),
  };
}
