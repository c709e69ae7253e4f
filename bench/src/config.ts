import { join } from 'node:path';

function numberFromEnv(name: string, fallback: number, { zeroAllowed = false } = {}): number {
  const value = process.env[name];
  if (value === undefined || value === '') return fallback;
  const parsed = Number(value);
  if (!Number.isFinite(parsed) || parsed < 0 || (parsed === 0 && !zeroAllowed)) {
    throw new Error(`${name} must be a ${zeroAllowed ? 'non-negative' : 'positive'} number, not ${value}`);
  }
  return parsed;
}

/** The repository root (bench/dist/bench/src → four levels up). */
export const repoRoot = join(__dirname, '..', '..', '..', '..');
export const benchRoot = join(repoRoot, 'bench');
export const resultsDir = join(benchRoot, 'results');
export const logsDir = join(resultsDir, 'logs');
export const profilesDir = join(resultsDir, 'profiles');
/** Compiled bench code: servers are started from here. */
export const benchDist = join(benchRoot, 'dist', 'bench', 'src');

const scenarioIds = ['A1', 'A2', 'A3', 'A4', 'A5', 'A6', 'S1', 'S1K', 'S1M', 'S1T', 'S2', 'S2M', 'S2T', 'S3', 'S4', 'S5', 'S6', 'S7', 'S8', 'S9'] as const;
export type ScenarioId = (typeof scenarioIds)[number];

function scenariosFromEnv(value: string | undefined): Set<ScenarioId> {
  const ids = (value ?? '').split(',').map((id) => id.trim().toUpperCase()).filter((id) => id !== '');
  const unknown = ids.filter((id) => !(scenarioIds as readonly string[]).includes(id));
  if (unknown.length > 0) throw new Error(`BENCH_ONLY takes ${scenarioIds.join(', ')}; not ${unknown.join(', ')}`);
  return new Set(ids as ScenarioId[]);
}

function settingsFromEnv(text: string | undefined): Record<string, string> {
  const settings: Record<string, string> = {};
  for (const pair of (text ?? '').split(',').filter(Boolean)) {
    const at = pair.indexOf('=');
    if (at <= 0) throw new Error(`BENCH_SERVICE_ENV takes NAME=value pairs, comma-separated; not ${pair}`);
    settings[pair.slice(0, at)] = pair.slice(at + 1);
  }
  return settings;
}

/**
 * Every knob of a run, from the environment (BENCH_*), with defaults sized so the whole run
 * stays around three and a half minutes on a 2-core machine.
 */
export const config = {
  amqpUrl: process.env.AMQP_URL ?? 'amqp://guest:guest@127.0.0.1:5672',
  redisUrl: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
  /** Seconds of load per measured HTTP scenario (per round for A1, S1, A2, S2). */
  durationS: numberFromEnv('BENCH_DURATION', 8),
  /** Rounds of A1, S1, A2, S2 (each scenario's rounds are combined into one result). */
  rounds: numberFromEnv('BENCH_ROUNDS', 2),
  /** Seconds of unmeasured load before each measured one. */
  warmupS: numberFromEnv('BENCH_WARMUP', 3),
  /** Concurrent connections of the load generator for A1, A2, S1, S2. */
  connections: numberFromEnv('BENCH_CONNECTIONS', 10),
  /**
   * A second reading of A1, S1, A2, S2 (one round each) at this many connections; 0: none.
   * At 10, A2, S1 and S2 wait on their own latency with CPU to spare, so their rate is not
   * yet what the machine can take; here they come close to it.
   */
  saturationConnections: numberFromEnv('BENCH_SATURATION_CONNECTIONS', 32, { zeroAllowed: true }),
  /** Concurrent connections for the organization listing (S3). */
  listConnections: numberFromEnv('BENCH_LIST_CONNECTIONS', 2),
  /** Seconds of load per S3 measurement. */
  listDurationS: numberFromEnv('BENCH_LIST_DURATION', 10),
  /** Devices the pushes of S1/S2 rotate over. */
  devices: numberFromEnv('BENCH_DEVICES', 500),
  /** The xlsx of S4, in bytes (approximately; the table shows the real size). */
  xlsxBytes: numberFromEnv('BENCH_XLSX_MB', 10) * 1024 * 1024,
  /** Upload + describe rounds of S4. */
  uploadRounds: numberFromEnv('BENCH_UPLOAD_ROUNDS', 3),
  /** `created` events of S5. */
  notifierEvents: numberFromEnv('BENCH_NOTIFIER_EVENTS', 10_000),
  /** Submissions S6 measures in each mode, and posts of its anchor A3. */
  submissions: numberFromEnv('BENCH_SUBMISSIONS', 5000),
  /** S7: bulk requests of 1,000 dispatches, in each mode. */
  bulkRequests: numberFromEnv('BENCH_BULK_REQUESTS', 5),
  /** Log level of every process under test (their logs go to bench/results/logs). */
  logLevel: process.env.BENCH_LOG_LEVEL ?? 'info',
  /**
   * The sampler of S1T/S2T's traced processes (OTEL_TRACES_SAMPLER, and its argument
   * OTEL_TRACES_SAMPLER_ARG, e.g. parentbased_traceidratio and 0.1); unset: the SDK's
   * default, parent-based always on, which the targets are for.
   */
  tracesSampler: process.env.BENCH_TRACES_SAMPLER ?? '',
  tracesSamplerArg: process.env.BENCH_TRACES_SAMPLER_ARG ?? '',
  /** Set to write a V8 CPU profile of every process under test to bench/results/profiles. */
  cpuProfile: process.env.BENCH_CPU_PROF === '1',
  /** BENCH_SQLITE_BINDING: the SQLITE_BINDING every process under test gets (better-sqlite3 or node:sqlite); empty: their default. */
  sqliteBinding: process.env.BENCH_SQLITE_BINDING ?? '',
  /** BENCH_SERVICE_ENV=BUS_EVENTS_PER_ORGANIZATION=0,LOG_LEVEL=warn: settings every Formcast process under test gets, after the bench's own (to measure a setting's cost). */
  serviceEnv: settingsFromEnv(process.env.BENCH_SERVICE_ENV),
  /** Seconds every process under test is watched idle (its CPU read from /proc) before any load; 0: not. */
  idleS: numberFromEnv('BENCH_IDLE', 30, { zeroAllowed: true }),
  /**
   * BENCH_IDLE_SETTLED_AFTER: seconds after the set-up's last request at which the idle window
   * judged against the target starts (the window right after the set-up is printed beside it,
   * unjudged: it holds the after-work of the set-up's writes, such as the SQLite checkpointer
   * worker's memory-reducing GCs ~9 and ~18 s after it started, and its retirement at 30 s).
   */
  idleSettledAfterS: numberFromEnv('BENCH_IDLE_SETTLED_AFTER', 40, { zeroAllowed: true }),
  /**
   * BENCH_S8_DURATION: seconds of S8's trickle alone and of the flood with the trickle beside
   * it: 20 s is 200 of B's pushes, whose p99 is then not simply the slowest of 80.
   */
  s8DurationS: numberFromEnv('BENCH_S8_DURATION', 20),
  /** BENCH_ONLY=S1,S3: only these scenarios (and the anchors they are measured against); empty: all. */
  only: scenariosFromEnv(process.env.BENCH_ONLY),
};

/** Whether this run measures `id`: every scenario without BENCH_ONLY; an anchor with its scenario. */
export function measures(id: ScenarioId): boolean {
  const only = config.only;
  if (only.size === 0 || only.has(id)) return true;
  // S1K, S1M and S1T read as ratios to S1, itself read against A1; S2M and S2T to S2, read against A2.
  if ((id === 'A1' || id === 'S1') && (only.has('S1K') || only.has('S1M') || only.has('S1T'))) return true;
  if ((id === 'A2' || id === 'S2') && (only.has('S2M') || only.has('S2T'))) return true;
  // Issue 24's anchors: A4 with S1, A5 with S2, A6 with S6.
  const anchorOf: Partial<Record<ScenarioId, ScenarioId>> = { A1: 'S1', A4: 'S1', A2: 'S2', A5: 'S2', A3: 'S6', A6: 'S6' };
  const scenario = anchorOf[id];
  return scenario !== undefined && only.has(scenario);
}

/**
 * Connections of S6's anchor A3: as many as the delivery service sends to one destination at
 * once (DELIVERY_DESTINATION_CONCURRENCY's default).
 */
export const deliveryConnections = 8;

/** The targets of issue 7 (S6's: issue 13). */
export const targets = {
  deliveryRatio: 0.5,
  throughputRatio: 0.6,
  /** Issue 14: S1 with an Idempotency-Key on every request, against S1. */
  keyedThroughputRatio: 0.9,
  /** Issue 17: S1 and S2 with metrics on (the default), against the same with METRICS_ENABLED=false. */
  metricsThroughputRatio: 0.95,
  /** Issue 17: S1 and S2 with traces exported to a local OTLP receiver, against the same without. */
  tracesThroughputRatio: 0.85,
  p99Ratio: 2,
  listP99Ms: 250,
  uploadGrowthFactor: 3,
  notificationsPerSecond: 2000,
  /** Issue 23: peak RSS against A1's in the same run (it replaced Node 20's fixed 150 MB). */
  rssRatioToA1: { embedded: 1.3, service: 1.0 },
  /** Issue 24: CPU a request, all processes, at most this many times its anchor's (S1: A4, S2: A5, S6: A6). */
  cpuRatio: { S1: 1.5, S2: 1.5, S6: 2 },
  /** Issue 24: S6, from a submission's sending to its delivery's arrival, in each mode. */
  arrivalP50Ms: 50,
  arrivalP99Ms: 250,
  /** Issue 24: every process under test, idle, under this share of a core. */
  idleCoreShare: 0.002,
};
