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

const scenarioIds = ['A1', 'A2', 'S1', 'S2', 'S3', 'S4', 'S5'] as const;
export type ScenarioId = (typeof scenarioIds)[number];

function scenariosFromEnv(value: string | undefined): Set<ScenarioId> {
  const ids = (value ?? '').split(',').map((id) => id.trim().toUpperCase()).filter((id) => id !== '');
  const unknown = ids.filter((id) => !(scenarioIds as readonly string[]).includes(id));
  if (unknown.length > 0) throw new Error(`BENCH_ONLY takes ${scenarioIds.join(', ')}; not ${unknown.join(', ')}`);
  return new Set(ids as ScenarioId[]);
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
  /** Log level of every process under test (their logs go to bench/results/logs). */
  logLevel: process.env.BENCH_LOG_LEVEL ?? 'info',
  /** Set to write a V8 CPU profile of every process under test to bench/results/profiles. */
  cpuProfile: process.env.BENCH_CPU_PROF === '1',
  /** BENCH_ONLY=S1,S3: only these scenarios (and the anchors S1/S2 are measured against); empty: all. */
  only: scenariosFromEnv(process.env.BENCH_ONLY),
};

/** Whether this run measures `id`: every scenario without BENCH_ONLY; an anchor with its scenario. */
export function measures(id: ScenarioId): boolean {
  const only = config.only;
  if (only.size === 0 || only.has(id)) return true;
  return (id === 'A1' && only.has('S1')) || (id === 'A2' && only.has('S2'));
}

/**
 * The V8 flags every Formcast process runs with: those of `npm start` and `npm run
 * start:<service>` (package.json) and of the image (Dockerfile's NODE_OPTIONS); a deploy
 * test holds the three equal.
 */
export const serviceNodeFlags = ['--max-semi-space-size=4'];

/**
 * The environment every Formcast process starts with beside its settings, as `npm start`,
 * `npm run start:<service>` and the image (Dockerfile ENV) give it; a deploy test holds the
 * three equal. glibc serves an allocation over this size (a file being uploaded, decoded)
 * with a mapping of its own, given back to the system when freed. Without a fixed value glibc
 * raises the threshold to the largest block freed so far, so later 10 MB blocks can come from
 * its heap and stay with the process: the embedded process reached 145–152 MB during S4
 * (three uploads after the listing of S3), 136–142 MB with this.
 */
export const serviceEnvironment = { MALLOC_MMAP_THRESHOLD_: '131072' };

/** The targets of issue 7. */
export const targets = {
  throughputRatio: 0.6,
  p99Ratio: 2,
  listP99Ms: 250,
  uploadGrowthFactor: 3,
  notificationsPerSecond: 2000,
  rssMb: 150,
};
