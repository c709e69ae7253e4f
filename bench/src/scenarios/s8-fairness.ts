import autocannon = require('autocannon');
import { setUpOrganization, type BenchOrganization } from '../api';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { peakRssBytes, resetPeakRss, startNode, type Child } from '../children';
import { benchDist, config } from '../config';
import { LatencyLog } from '../load';
import type { Row } from '../report';
import { oneshotBody, pushPath } from '../request-shape';
import { deleteRedisKeys, deleteTopology, distributedServices, startDistributedSystem, startEmbeddedSystem, type System } from '../systems';

/**
 * S8 (issue 25): one organization floods, another trickles. Org A pushes at ten times the
 * system's capacity from 400 connections; org B pushes once every 100 ms. Each mode runs on
 * a system of its own with the shipped limits (rate limits, load shedding, fair service at
 * their defaults), not the bench's raised ones. Measured:
 * - B's p99 alone, then beside the flood (target: within 2×);
 * - A's answers: 429 or 503 past its share, none waiting over 2 s;
 * - peak RSS of each process during the flood against a plain push load on the same
 *   system (S1's: 10 connections of one organization; target: within 1.2×);
 * - nothing accepted lost: the 202s counted against the dispatches stored afterwards.
 */

const floodConnections = 400;
const capacityFactor = 10;
/** B: one push every 100 ms. */
const trickleRate = 10;
const targets = { bP99Ratio: 2, aMaxWaitMs: 2000, rssRatio: 1.2 };

/** The shipped limits: the bench's raised rate limits put back to their defaults. */
const shippedLimits = {
  RATE_LIMIT_ORGANIZATION_PER_SECOND: '1000',
  RATE_LIMIT_ORGANIZATION_BURST: '5000',
  RATE_LIMIT_DEVICE_PER_SECOND: '20',
  RATE_LIMIT_DEVICE_BURST: '200',
  RATE_LIMIT_ADDRESS_PER_SECOND: '200',
  RATE_LIMIT_ADDRESS_BURST: '2000',
};

interface Answers {
  statuses: Record<string, number>;
  /** Latencies of the 202s. */
  accepted: LatencyLog;
  /** Latencies of every answer, whatever its status. */
  all: LatencyLog;
  errors: number;
  seconds: number;
  /** B's trickle only: how late the sending process's event loop ran at worst. */
  lagMaxMs?: number;
}

/** Pushes of `org` from `connections`, at most `rate` a second in all (0: as fast as they go), for `seconds`. */
function pushes(origin: string, org: BenchOrganization, connections: number, rate: number, seconds: number): Promise<Answers> {
  let n = 0;
  const answers: Answers = { statuses: {}, accepted: new LatencyLog(), all: new LatencyLog(), errors: 0, seconds };
  const options = {
    url: origin,
    connections,
    duration: seconds,
    timeout: 30,
    ...(rate > 0 ? { overallRate: rate } : {}),
    requests: [
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: org.authorization },
        body: oneshotBody(org.formNamespace),
        setupRequest: (request: object) => ({ ...request, path: pushPath(org.deviceIdentifiers, n++) }),
      },
    ],
  };
  return new Promise((resolve, reject) => {
    const instance = autocannon(options as Parameters<typeof autocannon>[0], (error, result) => {
      if (error) return reject(error);
      answers.errors = result.errors + result.timeouts;
      resolve(answers);
    });
    instance.on('response', (_client: unknown, status: number, _bytes: number, ms: number) => {
      answers.statuses[status] = (answers.statuses[status] ?? 0) + 1;
      answers.all.add(ms);
      if (status === 202) answers.accepted.add(ms);
    });
  });
}

const count = (answers: Pick<Answers, 'statuses'>, status: number) => answers.statuses[status] ?? 0;

/** The statuses of several loads run side by side, summed (their latencies are not needed). */
function mergedAnswers(all: Answers[]): Pick<Answers, 'statuses'> {
  const statuses: Record<string, number> = {};
  for (const answers of all) for (const [status, n] of Object.entries(answers.statuses)) statuses[status] = (statuses[status] ?? 0) + n;
  return { statuses };
}

interface Flood {
  statuses: Record<string, number>;
  errors: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  /** How late the flood's own event loop ran at worst: a wait in the generator, not the server. */
  lagMaxMs: number;
  seconds: number;
}

/** A's flood, from a process of its own (s8-flood.ts). */
async function flood(origin: string, org: BenchOrganization, rate: number, seconds: number): Promise<Flood> {
  const child = startNode('s8-flood', join(benchDist, 'scenarios/s8-flood.js'), {
    S8_ORIGIN: origin,
    S8_AUTHORIZATION: org.authorization,
    S8_BODY: oneshotBody(org.formNamespace),
    S8_DEVICES: org.deviceIdentifiers.join(','),
    S8_CONNECTIONS: String(floodConnections),
    S8_RATE: String(Math.round(rate)),
    S8_SECONDS: String(seconds),
  });
  try {
    const { flood: result } = await child.message<{ flood: Omit<Flood, 'seconds'> }>((m) => m?.flood, (seconds + 60) * 1000);
    return { ...result, seconds };
  } finally {
    await child.stop();
  }
}

/**
 * B's trickle: one push every 100 ms for `seconds`, each sent on time whatever the ones
 * before it are doing, each timed from its sending to its answer; every one is waited for.
 */
async function trickle(origin: string, org: BenchOrganization, seconds: number): Promise<Answers> {
  const answers: Answers = { statuses: {}, accepted: new LatencyLog(), all: new LatencyLog(), errors: 0, seconds };
  const body = oneshotBody(org.formNamespace);
  const sent: Promise<void>[] = [];
  const one = async (n: number) => {
    const started = performance.now();
    try {
      const res = await fetch(`${origin}${pushPath(org.deviceIdentifiers, n)}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: org.authorization },
        body,
        signal: AbortSignal.timeout(30_000),
      });
      await res.arrayBuffer();
      const ms = performance.now() - started;
      answers.statuses[res.status] = (answers.statuses[res.status] ?? 0) + 1;
      answers.all.add(ms);
      if (res.status === 202) answers.accepted.add(ms);
    } catch {
      answers.errors += 1;
    }
  };
  const total = Math.round(seconds * trickleRate);
  const lag = monitorEventLoopDelay({ resolution: 10 });
  lag.enable();
  const started = performance.now();
  for (let n = 0; n < total; n += 1) {
    const due = started + (n * 1000) / trickleRate;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    sent.push(one(n));
  }
  await Promise.all(sent);
  lag.disable();
  answers.lagMaxMs = lag.max / 1e6;
  return answers;
}

/** Every process's peak RSS while `work` runs. */
async function peaksDuring<T>(processes: Child[], work: () => Promise<T>): Promise<{ result: T; peaks: Map<string, number> }> {
  for (const child of processes) resetPeakRss(child.pid);
  const result = await work();
  return { result, peaks: new Map(processes.map((child) => [child.name, peakRssBytes(child.pid)])) };
}

/** The dispatches of `org` stored now (the v3 organization listing's X-Total-Count). */
async function storedDispatches(origin: string, org: BenchOrganization): Promise<number> {
  const res = await fetch(`${origin}/api/v3/organization_dispatches.json?items=1`, { headers: { authorization: org.authorization } });
  if (res.status !== 200) throw new Error(`S8: counting dispatches answered ${res.status}: ${(await res.text()).slice(0, 200)}`);
  await res.arrayBuffer();
  return Number(res.headers.get('x-total-count'));
}

export interface S8Result {
  mode: string;
  capacity: number;
  bAlone: Answers;
  bBeside: Answers;
  flood: Flood;
  baselinePeaks: Map<string, number>;
  floodPeaks: Map<string, number>;
  accepted: number;
  stored: number;
}

async function measureMode(mode: string, system: System, log: (message: string) => void): Promise<S8Result> {
  const [a, b, ...others] = await Promise.all([
    setUpOrganization(system.origin, system.adminToken, `Bench S8 A ${mode}`, 50),
    setUpOrganization(system.origin, system.adminToken, `Bench S8 B ${mode}`, 5),
    ...[1, 2, 3].map((n) => setUpOrganization(system.origin, system.adminToken, `Bench S8 C${n} ${mode}`, 5)),
  ]);
  const seconds = config.s8DurationS;
  // Warm-up, then S1's load (10 connections) as the memory baseline; its rate is the capacity. The
  // connections are spread over A and three others (not B, whose devices' outstanding dispatches
  // must stay under their cap), so that no organization's rate limit (shipped: 1,000 a second and
  // 5,000 at once) caps what is measured as the system's capacity.
  const warmUp = await pushes(system.origin, b, config.connections, 0, config.warmupS);
  const baselineOrgs = [a, ...others];
  const baseline = await peaksDuring(system.processes, async () =>
    mergedAnswers(await Promise.all(baselineOrgs.map((org, n) => pushes(system.origin, org, Math.ceil((config.connections - n) / baselineOrgs.length), 0, config.durationS)))),
  );
  const capacity = count(baseline.result, 202) / config.durationS;
  // Past the per-second bucket of the organization: let A's bucket and burst refill before the flood.
  await new Promise((resolve) => setTimeout(resolve, 6000));
  const bAlone = await trickle(system.origin, b, seconds);
  log(`S8 ${mode}: capacity ${capacity.toFixed(0)} pushes/s (10 connections); B alone p99 ${bAlone.accepted.percentile(99).toFixed(1)} ms`);
  const flooded = await peaksDuring(system.processes, () => Promise.all([flood(system.origin, a, capacity * capacityFactor, seconds), trickle(system.origin, b, seconds)]));
  const [aFlood, bBeside] = flooded.result;
  // What was accepted is stored: once the system is quiet, the dispatches each organization has.
  await new Promise((resolve) => setTimeout(resolve, 2000));
  const accepted = count(baseline.result, 202) + count(aFlood, 202) + count(bAlone, 202) + count(bBeside, 202) + count(warmUp, 202);
  let stored = 0;
  for (const org of [b, ...baselineOrgs]) stored += await storedDispatches(system.origin, org);
  log(
    `S8 ${mode}: A flood ${JSON.stringify(aFlood.statuses)} (${aFlood.errors} errors), slowest ${aFlood.maxMs.toFixed(0)} ms; ` +
      `B beside it p99 ${bBeside.accepted.percentile(99).toFixed(1)} ms ${JSON.stringify(bBeside.statuses)}; accepted ${accepted}, stored ${stored}`,
  );
  return { mode, capacity, bAlone, bBeside, flood: aFlood, baselinePeaks: baseline.peaks, floodPeaks: flooded.peaks, accepted, stored };
}

function rowsOf(result: S8Result): Row[] {
  const bRatio = result.bBeside.accepted.percentile(99) / result.bAlone.accepted.percentile(99);
  const bFailed = Object.entries(result.bBeside.statuses).filter(([status]) => status !== '202').reduce((sum, [, n]) => sum + n, 0) + result.bBeside.errors;
  const refused = count(result.flood, 429) + count(result.flood, 503);
  const slowest = result.flood.maxMs;
  const worstRss = [...result.floodPeaks].map(([name, peak]): [string, number] => [name, peak / Math.max(result.baselinePeaks.get(name) ?? 1, 1)]).sort((x, y) => y[1] - x[1])[0]!;
  const mb = (bytes: number) => (bytes / (1024 * 1024)).toFixed(0);
  // Stored may be more than the 202s counted: a push sent as the load generator stopped is stored, its answer never read.
  const lost = Math.max(0, result.accepted - result.stored);
  return [
    {
      id: 'S8',
      scenario: `${result.mode}: org B, one push every 100 ms, beside org A at ${capacityFactor}× capacity (${(result.capacity * capacityFactor).toFixed(0)}/s offered) from ${floodConnections} connections`,
      rate: count(result.bBeside, 202) / result.bBeside.seconds,
      p50Ms: result.bBeside.accepted.percentile(50),
      p99Ms: result.bBeside.accepted.percentile(99),
      versus: `${bRatio.toFixed(2)}× B's p99 alone (${result.bAlone.accepted.percentile(99).toFixed(1)} ms); B's sender (the bench process) ran up to ${(result.bBeside.lagMaxMs ?? 0).toFixed(0)} ms late`,
      target: `B p99 ≤ ${targets.bP99Ratio}× alone, none refused`,
      pass: bRatio <= targets.bP99Ratio && bFailed === 0,
      note: bFailed > 0 ? `B: ${JSON.stringify(result.bBeside.statuses)}, ${result.bBeside.errors} errors` : undefined,
    },
    {
      id: 'S8',
      scenario: `${result.mode}: org A's flood: ${count(result.flood, 202)} accepted, ${count(result.flood, 429)} × 429, ${count(result.flood, 503)} × 503`,
      rate: count(result.flood, 202) / result.flood.seconds,
      p50Ms: result.flood.p50Ms,
      p99Ms: result.flood.p99Ms,
      versus: `slowest answer ${slowest.toFixed(0)} ms; the flood's own process ran up to ${result.flood.lagMaxMs.toFixed(0)} ms late; ${result.flood.errors} errors or timeouts`,
      target: `429/503 past its share, none over ${targets.aMaxWaitMs} ms`,
      pass: refused > 0 && slowest <= targets.aMaxWaitMs && result.flood.errors === 0,
      note: `statuses ${JSON.stringify(result.flood.statuses)}`,
    },
    {
      id: 'S8',
      scenario: `${result.mode}: peak RSS during the flood against S1's load (10 connections) on the same system`,
      versus: `worst ${worstRss[0]}: ${worstRss[1].toFixed(2)}× (${[...result.floodPeaks].map(([name, peak]) => `${name.replace(/^distributed-/, '')} ${mb(result.baselinePeaks.get(name) ?? 0)} → ${mb(peak)} MB`).join(', ')})`,
      target: `≤ ${targets.rssRatio}×`,
      pass: worstRss[1] <= targets.rssRatio,
    },
    {
      id: 'S8',
      scenario: `${result.mode}: accepted (202) against stored afterwards, every organization`,
      versus: `${result.accepted} answered 202, ${result.stored} stored (more: sent as the generator stopped, answers unread)`,
      target: 'none lost',
      pass: lost === 0,
      note: lost !== 0 ? `${lost} accepted but not stored` : undefined,
    },
  ];
}

/** S8 in each mode, each on a system of its own started and stopped here. */
export async function fairnessScenario(options: { prefix: string; log: (message: string) => void }): Promise<Row[]> {
  const rows: Row[] = [];
  // BENCH_S8_ENV: settings to try against the shipped ones (JSON); BENCH_S8_MODES: embedded, distributed or both (default).
  const env: Record<string, string> = { ...shippedLimits, ...(JSON.parse(process.env.BENCH_S8_ENV ?? '{}') as Record<string, string>) };
  const modes = (process.env.BENCH_S8_MODES ?? 'embedded,distributed').split(',');
  const prefix = `${options.prefix}_s8`;
  const systems: Array<[string, () => Promise<System>, () => Promise<unknown>]> = [
    ['embedded', () => startEmbeddedSystem({ suffix: '-s8', env }), async () => undefined],
    [
      'distributed',
      () => startDistributedSystem({ prefix, redisPrefix: `${prefix}:`, suffix: '-s8', env }),
      async () => {
        await deleteTopology(prefix, distributedServices);
        await deleteRedisKeys(`${prefix}:`);
      },
    ],
  ];
  for (const [mode, start, removeWhatItMade] of systems) {
    if (!modes.includes(mode)) continue;
    const system = await start();
    try {
      rows.push(...rowsOf(await measureMode(mode, system, options.log)));
    } finally {
      await system.stop();
      await removeWhatItMade();
    }
  }
  return rows;
}
