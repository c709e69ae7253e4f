import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createBus } from '@formcast/bus';
import { createEnvelope, pushEvents, type OneshotEventPayload } from '@formcast/contracts';
import { createLogger } from '@formcast/platform';
import { setUpOrganization, timedCall, type BenchOrganization } from './api';
import {
  ForeignCpu,
  infrastructurePids,
  peakRssBytes,
  mainThreadJiffies,
  processJiffies,
  resetPeakRss,
  rssBytes,
  startNode,
  stopAll,
  type Child,
} from './children';
import { benchDist, config, measures, repoRoot, resultsDir, targets } from './config';
import { combine, runLoad, type LoadResult, type LoadSpec } from './load';
import { renderMarkdown, type ProcessMemory, type Row } from './report';
import { oneshotBody, pushPath } from './request-shape';
import { deleteTopology, startDistributedSystem, startEmbeddedSystem, startStandInNotifier, type System } from './systems';
import { writeWorkbook } from './xlsx';

const mb = (bytes: number) => bytes / (1024 * 1024);
const log = (message: string) => process.stdout.write(`[bench ${new Date().toISOString().slice(11, 19)}] ${message}\n`);

/** Every process under test, for RSS: idle, then the peak of each phase. */
class MemoryWatch {
  private readonly idle = new Map<Child, number>();
  private readonly peaks = new Map<Child, Map<string, number>>();
  private readonly processes: Child[] = [];

  add(...children: Child[]): void {
    this.processes.push(...children);
  }

  all(): Child[] {
    return [...this.processes];
  }

  recordIdle(): void {
    for (const child of this.processes) this.idle.set(child, rssBytes(child.pid));
  }

  /** Runs `work` as phase `phase`: every process's peak RSS is reset before and read after. */
  async phase<T>(phase: string, work: () => Promise<T>, children: Child[] = this.processes): Promise<T> {
    for (const child of children) resetPeakRss(child.pid);
    const result = await work();
    for (const child of children) {
      const phases = this.peaks.get(child) ?? new Map<string, number>();
      phases.set(phase, Math.max(phases.get(phase) ?? 0, peakRssBytes(child.pid)));
      this.peaks.set(child, phases);
    }
    return result;
  }

  report(): ProcessMemory[] {
    return this.processes.map((child) => {
      const idle = this.idle.get(child) ?? 0;
      const phases = this.peaks.get(child) ?? new Map<string, number>();
      const worst = (keep: (phase: string) => boolean) =>
        [...phases].filter(([phase]) => keep(phase)).sort((a, b) => b[1] - a[1])[0] ?? ['idle', idle] as [string, number];
      const [loadPhase, load] = worst((phase) => !phase.startsWith('S4'));
      const [, upload] = worst((phase) => phase.startsWith('S4'));
      const peak = Math.max(load, upload);
      return {
        name: child.name,
        idleMb: mb(idle),
        loadPeakMb: mb(load),
        loadPhase,
        uploadPeakMb: phases.size > 0 && [...phases.keys()].some((phase) => phase.startsWith('S4')) ? mb(upload) : undefined,
        pass: mb(peak) < targets.rssMb,
      };
    });
  }
}

interface Bench {
  memory: MemoryWatch;
  foreign: ForeignCpu;
  /** RabbitMQ, Redis, and helpers of the bench (the FCM stand-in): not foreign load. */
  infrastructure: number[];
}

/** Every process whose CPU is the bench's own doing. */
const ourPids = (bench: Bench) => [process.pid, ...bench.memory.all().map((c) => c.pid), ...bench.infrastructure];

/**
 * Who did the work of a scenario, for its CPU a request: processes under test (a process with
 * threads of its own also its main thread alone), RabbitMQ, Redis, the load generator; each
 * with how to read its CPU ticks so far.
 */
type CpuWatch = Array<[name: string, ticks: () => number]>;

const ticksOf = (pids: number[]) => () => pids.reduce((sum, pid) => sum + processJiffies(pid), 0);

function cpuWatch(children: Child[], infrastructure: Array<[string, number[]]>, threaded: Child[] = []): CpuWatch {
  return [
    ...children.map((c): [string, () => number] => [c.name.replace(/^(distributed|anchor)-/, ''), ticksOf([c.pid])]),
    ...threaded.map((c): [string, () => number] => [`${c.name} main thread`, () => mainThreadJiffies(c.pid)]),
    ...infrastructure.map(([name, pids]): [string, () => number] => [name, ticksOf(pids)]),
    ['load generator', ticksOf([process.pid])],
  ];
}

type Measured = LoadResult & { cpuTicks: Map<string, number> };

/** CPU a request, by process: "gateway 530, RabbitMQ 430" (µs; under 5 left out). */
function cpuPerRequest(result: Measured): string | undefined {
  if (result.cpuTicks.size === 0) return undefined;
  return [...result.cpuTicks]
    .map(([name, ticks]): [string, number] => [name, (ticks * 10_000) / Math.max(result.ok, 1)])
    .filter(([, us]) => us >= 5)
    .map(([name, us]) => `${name} ${Math.round(us).toLocaleString('en-US')}`)
    .join(', ');
}

/** Rounds of one scenario as one measurement. */
function combineMeasured(results: Measured[]): LoadResult & { cpu?: string } {
  const cpuTicks = new Map<string, number>();
  for (const result of results) for (const [name, ticks] of result.cpuTicks) cpuTicks.set(name, (cpuTicks.get(name) ?? 0) + ticks);
  const combined = { ...combine(results), cpuTicks };
  return { ...combined, cpu: cpuPerRequest(combined) };
}

/** A warm-up load, then the measured one, inside a memory phase and a foreign-CPU window. */
async function measureOnce(bench: Bench, label: string, spec: LoadSpec, watch: CpuWatch = []): Promise<Measured> {
  if (config.warmupS > 0 && !spec.amount) await runLoad({ ...spec, durationS: config.warmupS });
  return bench.memory.phase(
    label,
    async () => {
      bench.foreign.begin(ourPids(bench));
      const before = watch.map(([, ticks]) => ticks());
      const result = await runLoad(spec);
      const cpuTicks = new Map(watch.map(([name, ticks], i) => [name, ticks() - before[i]!]));
      bench.foreign.end();
      log(
        `${label}: ${result.requestsPerSecond.toFixed(0)} req/s, p50 ${result.p50Ms.toFixed(2)} ms, p99 ${result.p99Ms.toFixed(2)} ms` +
          (result.failed > 0 ? `, ${result.failed} failed (${JSON.stringify(result.statuses)})` : ''),
      );
      return { ...result, cpuTicks };
    },
  );
}

async function measure(bench: Bench, label: string, spec: LoadSpec, watch: CpuWatch = []): Promise<LoadResult & { cpu?: string }> {
  return combineMeasured([await measureOnce(bench, label, spec, watch)]);
}

function pushLoad(
  origin: string,
  org: Pick<BenchOrganization, 'authorization' | 'formNamespace' | 'deviceIdentifiers'>,
  durationS = config.durationS,
  connections = config.connections,
): LoadSpec {
  return {
    origin,
    method: 'POST',
    headers: { authorization: org.authorization },
    body: oneshotBody(org.formNamespace),
    path: (n) => pushPath(org.deviceIdentifiers, n),
    connections,
    durationS,
    expectStatus: 202,
  };
}

const failures = (result: LoadResult) => (result.failed > 0 ? `${result.failed} failed answers` : undefined);

function ratioRow(id: string, scenario: string, result: LoadResult & { cpu?: string }, anchor: LoadResult, anchorId: string): Row {
  const throughput = result.requestsPerSecond / anchor.requestsPerSecond;
  const p99 = result.p99Ms / anchor.p99Ms;
  return {
    id,
    scenario,
    rate: result.requestsPerSecond,
    p50Ms: result.p50Ms,
    p99Ms: result.p99Ms,
    versus: `${throughput.toFixed(2)}× ${anchorId} req/s, ${p99.toFixed(2)}× ${anchorId} p99`,
    target: `≥ ${targets.throughputRatio}× req/s, p99 ≤ ${targets.p99Ratio}×`,
    pass: throughput >= targets.throughputRatio && p99 <= targets.p99Ratio && result.failed === 0,
    note: failures(result),
    cpu: result.cpu,
  };
}

function anchorRow(id: string, scenario: string, result: LoadResult & { cpu?: string }): Row {
  return { id, scenario, rate: result.requestsPerSecond, p50Ms: result.p50Ms, p99Ms: result.p99Ms, target: 'anchor', note: failures(result), cpu: result.cpu };
}

/** The 10 MB xlsx of S4, made once per size and kept in the temporary folder. */
async function benchWorkbook(): Promise<{ file: string; bytes: number }> {
  const file = join(tmpdir(), `formcast-bench-${Math.round(config.xlsxBytes)}-v1.xlsx`);
  if (!existsSync(file)) {
    log(`writing a ${mb(config.xlsxBytes).toFixed(0)} MB xlsx with exceljs's streaming writer`);
    await writeWorkbook(`${file}.partial`, config.xlsxBytes);
    renameSync(`${file}.partial`, file);
  }
  return { file, bytes: readFileSync(file).length };
}

/** S4 on one system: upload + describe, `rounds` times; RSS growth of each of `watched`. */
async function uploadScenario(bench: Bench, label: string, system: System, org: BenchOrganization, workbook: { file: string; bytes: number }, watched: Child[]) {
  const body = JSON.stringify({
    resource: {
      description: 'Sites',
      file: {
        file_name: 'sites.xlsx',
        content_type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
        file_data: readFileSync(workbook.file).toString('base64'),
      },
    },
  });
  const uploads: number[] = [];
  const describes: number[] = [];
  const growth = new Map<Child, number>();
  for (let round = 0; round < config.uploadRounds; round++) {
    const before = new Map(watched.map((c) => [c, rssBytes(c.pid)]));
    await bench.memory.phase(label, async () => {
      bench.foreign.begin(ourPids(bench));
      const created = await timedCall(system.origin, 'POST', '/api/resources.json', {
        headers: { authorization: org.authorization },
        contentType: 'application/json',
        body,
      });
      if (created.status !== 201) throw new Error(`${label}: upload answered ${created.status}: ${created.text.slice(0, 300)}`);
      const id = JSON.parse(created.text).resource.id as number;
      const described = await timedCall(system.origin, 'GET', `/api/resources/${id}/describe.json`, { headers: { authorization: org.authorization } });
      if (described.status !== 200) throw new Error(`${label}: describe answered ${described.status}`);
      bench.foreign.end();
      uploads.push(created.ms);
      describes.push(described.ms);
    }, watched);
    for (const child of watched) {
      const grown = peakRssBytes(child.pid) - before.get(child)!;
      growth.set(child, Math.max(growth.get(child) ?? 0, grown));
    }
  }
  log(`${label}: uploads ${uploads.map((ms) => ms.toFixed(0)).join(', ')} ms; describes ${describes.map((ms) => ms.toFixed(0)).join(', ')} ms; growth ${[...growth].map(([c, b]) => `${c.name} ${mb(b).toFixed(1)} MB`).join(', ')}`);
  return { uploads, describes, growth };
}

/** S5: `count` `created` events for as many devices (each with a push token), published on the bus. */
async function notifierScenario(bench: Bench, prefix: string, standIn: Child, notifier: Child, count: number) {
  standIn.send({ clear: true });
  await standIn.message((m) => m?.cleared);
  const bus = createBus({ amqpUrl: config.amqpUrl, prefix, logger: createLogger({ level: 'silent' }), connectionName: 'bench-publisher' });
  await bus.start();
  try {
    return await bench.memory.phase(
      'S5',
      async () => {
        bench.foreign.begin(ourPids(bench));
        const started = Date.now();
        const orgId = 900_000 + Math.floor(Math.random() * 99_999);
        for (let from = 1; from <= count; from += 500) {
          const batch: Promise<void>[] = [];
          for (let i = from; i < Math.min(from + 500, count + 1); i++) {
            const payload: OneshotEventPayload = {
              oneshotId: i,
              orgId,
              deviceId: i,
              deviceIdentifier: `Android_bench_${i}`,
              pushToken: `bench-token-${i}`,
              name: 'Inspection for Acme',
              description: 'Call ahead; gate code 4711',
              namespace: 'http://formcast.local/xforms/00000000-0000-4000-8000-000000000000',
              outstandingCount: 1,
            };
            batch.push(bus.publish(createEnvelope(pushEvents.oneshotCreated, payload, { orgId })));
          }
          await Promise.all(batch);
        }
        const published = Date.now();
        let status: { count: number; firstAt: number | null; lastAt: number | null } = { count: 0, firstAt: null, lastAt: null };
        const deadline = Date.now() + 120_000;
        while (status.count < count && Date.now() < deadline) {
          await new Promise((resolve) => setTimeout(resolve, 100));
          standIn.send({ count: true });
          status = await standIn.message((m) => typeof m?.count === 'number');
        }
        bench.foreign.end();
        const seconds = ((status.lastAt ?? Date.now()) - started) / 1000;
        const rate = status.count / seconds;
        log(`S5: ${status.count}/${count} notifications in ${seconds.toFixed(2)} s (${rate.toFixed(0)}/s); publishing took ${((published - started) / 1000).toFixed(2)} s`);
        return { delivered: status.count, seconds, rate, publishSeconds: (published - started) / 1000 };
      },
      [notifier, standIn],
    );
  } finally {
    await bus.close();
  }
}

/** RabbitMQ's and Redis's processes, by name. */
function infrastructureByName(): Array<[string, number[]]> {
  const byName = new Map<string, number[]>();
  for (const pid of infrastructurePids()) {
    const comm = readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
    const name = comm.startsWith('redis') ? 'Redis' : 'RabbitMQ';
    byName.set(name, [...(byName.get(name) ?? []), pid]);
  }
  return [...byName];
}

/** What to undo at the end, also after a failure or Ctrl-C: run in reverse, once. */
const cleanups: Array<() => Promise<unknown>> = [];
let cleaning: Promise<void> | null = null;

function cleanUp(): Promise<void> {
  cleaning ??= (async () => {
    for (const cleanup of cleanups.splice(0).reverse()) {
      try {
        await cleanup();
      } catch (error) {
        log(`cleanup: ${String(error)}`);
      }
    }
    await stopAll();
  })();
  return cleaning;
}

async function main(): Promise<void> {
  const runStarted = Date.now();
  if (!existsSync(join(repoRoot, 'services/embedded/dist/main.js'))) throw new Error('Build first: npm run build');
  const runId = `bench_${randomBytes(4).toString('hex')}`;
  const prefix = runId;
  const redisPrefix = `${runId}:badges:`;
  const anchorQueue = `${runId}.anchor`;
  const loadAtStart = loadavg();
  log(`run ${runId}: ${config.durationS}s per scenario after ${config.warmupS}s warm-up, ${config.connections} connections, LOG_LEVEL=${config.logLevel}`);

  const bench: Bench = { memory: new MemoryWatch(), foreign: new ForeignCpu(), infrastructure: infrastructurePids() };
  const rows: Row[] = [];
  const notes: string[] = [];
  const stops = cleanups;

  try {
    // --- everything up ------------------------------------------------------------------
    const standIn = startNode('fcm-stand-in', join(benchDist, 'servers/fcm-stand-in.js'), {});
    const consumer = startNode('anchor-a2-consumer', join(benchDist, 'servers/anchor-consumer.js'), { AMQP_URL: config.amqpUrl, ANCHOR_QUEUE: anchorQueue });
    stops.push(() => deleteTopology(prefix, [], [anchorQueue]));
    const a1 = startNode('anchor-a1', join(benchDist, 'servers/anchor.js'), { ANCHOR_MODE: 'bare', PORT: '0' });
    bench.infrastructure.push(standIn.pid);
    const [{ port: fcmPort }, { port: a1Port }] = await Promise.all([
      standIn.message<{ port: number }>((m) => m?.ready),
      a1.message<{ port: number }>((m) => m?.ready),
      consumer.message((m) => m?.ready),
    ]);
    const a2 = startNode('anchor-a2', join(benchDist, 'servers/anchor.js'), { ANCHOR_MODE: 'amqp', PORT: '0', AMQP_URL: config.amqpUrl, ANCHOR_QUEUE: anchorQueue });
    const { port: a2Port } = await a2.message<{ port: number }>((m) => m?.ready);

    log('starting embedded mode and distributed mode');
    const embedded = await startEmbeddedSystem();
    stops.push(() => embedded.stop());
    const distributed = await startDistributedSystem({ prefix, redisPrefix });
    stops.push(() => distributed.stop());
    const s5Prefix = `${runId}_s5`;
    const s5Notifier = await startStandInNotifier({ prefix: s5Prefix, redisPrefix: `${s5Prefix}:`, fcmPort });
    stops.push(() => s5Notifier.stop());
    bench.memory.add(a1, a2, consumer, ...embedded.processes, ...distributed.processes, s5Notifier.child);

    log(`setting up organizations (${config.devices} devices each for S1/S2)`);
    const [s1Org, s2Org, s3Org, s4Org, s4dOrg] = await Promise.all([
      setUpOrganization(embedded.origin, embedded.adminToken, 'Bench S1', config.devices),
      setUpOrganization(distributed.origin, distributed.adminToken, 'Bench S2', config.devices),
      setUpOrganization(embedded.origin, embedded.adminToken, 'Bench S3', 20),
      setUpOrganization(embedded.origin, embedded.adminToken, 'Bench S4', 1),
      setUpOrganization(distributed.origin, distributed.adminToken, 'Bench S4 distributed', 1),
    ]);
    const workbook = await benchWorkbook();
    const anchorOrg = { authorization: 'Basic YW5jaG9yOng=', formNamespace: s1Org.formNamespace, deviceIdentifiers: s1Org.deviceIdentifiers };

    await new Promise((resolve) => setTimeout(resolve, 1000));
    bench.memory.recordIdle();

    // --- A1, S1, A2, S2: back to back, so machine noise is shared ------------------------
    // The load generator's own code needs ~10 s of traffic before it runs at full speed
    // (JIT); without this, the first scenario (A1) would be measured slow.
    log('warming up the load generator');
    await runLoad({ ...pushLoad(`http://127.0.0.1:${a1Port}`, anchorOrg), durationS: 8 });
    // In rounds (A1, S1, A2, S2, then again), each scenario's rounds taken as one
    // measurement: a slow spell of the machine then weighs on anchors and scenarios alike.
    const infra = infrastructureByName();
    const rounds: Record<'A1' | 'S1' | 'A2' | 'S2', Measured[]> = { A1: [], S1: [], A2: [], S2: [] };
    const pushScenarios = (connections: number, label = '') => ({
      A1: () => measureOnce(bench, `A1${label}`, pushLoad(`http://127.0.0.1:${a1Port}`, anchorOrg, config.durationS, connections), cpuWatch([a1], [])),
      S1: () => measureOnce(bench, `S1${label}`, pushLoad(embedded.origin, s1Org, config.durationS, connections), cpuWatch(embedded.processes, [], embedded.processes)),
      A2: () => measureOnce(bench, `A2${label}`, pushLoad(`http://127.0.0.1:${a2Port}`, anchorOrg, config.durationS, connections), cpuWatch([a2, consumer], infra)),
      S2: () => measureOnce(bench, `S2${label}`, pushLoad(distributed.origin, s2Org, config.durationS, connections), cpuWatch(distributed.processes, infra)),
    });
    const pushIds = (['A1', 'S1', 'A2', 'S2'] as const).filter(measures);
    const atConnections = pushScenarios(config.connections);
    for (let round = 1; round <= config.rounds; round++) {
      for (const id of pushIds) rounds[id].push(await atConnections[id]());
    }
    const result = (id: keyof typeof rounds) => combineMeasured(rounds[id]);
    if (measures('A1')) rows.push(anchorRow('A1', 'bare express, 202', result('A1')));
    if (measures('A2')) rows.push(anchorRow('A2', 'express + amqplib direct reply-to round trip', result('A2')));
    if (measures('S1')) rows.push(ratioRow('S1', `embedded: POST /clients/<device>/oneshots.json, ${config.devices} devices`, result('S1'), result('A1'), 'A1'));
    if (measures('S2')) rows.push(ratioRow('S2', `distributed: the same`, result('S2'), result('A2'), 'A2'));

    // The same at saturation: one round each, the anchors beside their scenarios again.
    if (config.saturationConnections > 0) {
      const saturated = pushScenarios(config.saturationConnections, ` at ${config.saturationConnections}`);
      const at: Partial<Record<keyof typeof rounds, LoadResult & { cpu?: string }>> = {};
      for (const id of pushIds) at[id] = combineMeasured([await saturated[id]()]);
      const suffix = `, ${config.saturationConnections} connections`;
      if (at.A1) rows.push(anchorRow('A1', `bare express, 202${suffix}`, at.A1));
      if (at.A2) rows.push(anchorRow('A2', `express + amqplib round trip${suffix}`, at.A2));
      if (at.S1 && at.A1) rows.push(ratioRow('S1', `embedded${suffix}`, at.S1, at.A1, 'A1'));
      if (at.S2 && at.A2) rows.push(ratioRow('S2', `distributed${suffix}`, at.S2, at.A2, 'A2'));
    }

    // --- S3: the organization listing at 1,000 and 10,000 outstanding ---------------------
    if (measures('S3')) {
      const listing: LoadSpec = {
        origin: embedded.origin,
        method: 'GET',
        headers: { authorization: s3Org.authorization },
        path: () => `/organizations/${s3Org.orgId}/oneshots`,
        connections: config.listConnections,
        durationS: config.listDurationS,
        expectStatus: 200,
      };
      const seed = async (amount: number) => {
        const seeded = await runLoad({ ...pushLoad(embedded.origin, s3Org), amount });
        if (seeded.ok !== amount) throw new Error(`S3: seeding ${amount} oneshots got ${seeded.ok} accepted (${JSON.stringify(seeded.statuses)})`);
      };
      await seed(1000);
      const list1k = await measure(bench, 'S3 1k', listing, cpuWatch(embedded.processes, [], embedded.processes));
      await seed(9000);
      const list10k = await measure(bench, 'S3 10k', listing, cpuWatch(embedded.processes, [], embedded.processes));
      const list10kJson = await measure(bench, 'S3 10k json', { ...listing, path: () => `/organizations/${s3Org.orgId}/oneshots.json` }, cpuWatch(embedded.processes, [], embedded.processes));
      const listRow = (id: string, what: string, result: LoadResult & { cpu?: string }, target: boolean): Row => ({
        id,
        scenario: `embedded: GET /organizations/<org>/oneshots${what}`,
        rate: result.requestsPerSecond,
        p50Ms: result.p50Ms,
        p99Ms: result.p99Ms,
        target: target ? `p99 < ${targets.listP99Ms} ms` : '',
        pass: target ? result.p99Ms < targets.listP99Ms && result.failed === 0 : undefined,
        note: failures(result),
        cpu: result.cpu,
      });
      rows.push(listRow('S3', ', 1,000 outstanding (XML)', list1k, false));
      rows.push(listRow('S3', ', 10,000 outstanding (XML)', list10k, true));
      rows.push(listRow('S3', '.json, 10,000 outstanding', list10kJson, true));
    }

    // --- S4: upload + describe of the xlsx ------------------------------------------------
    if (measures('S4')) {
      const limit = targets.uploadGrowthFactor * workbook.bytes;
      const fileMb = mb(workbook.bytes).toFixed(1);
      const s4e = await uploadScenario(bench, 'S4 embedded', embedded, s4Org, workbook, embedded.processes);
      const s4d = await uploadScenario(bench, 'S4 distributed', distributed, s4dOrg, workbook, distributed.processes);
      for (const [id, label, s4] of [['S4', 'embedded', s4e], ['S4', 'distributed', s4d]] as const) {
        const worst = [...s4.growth].sort((a, b) => b[1] - a[1])[0]!;
        const sorted = [...s4.uploads].sort((a, b) => a - b);
        rows.push({
          id,
          scenario: `${label}: upload + describe of a ${fileMb} MB xlsx, ${config.uploadRounds} rounds`,
          p50Ms: sorted[Math.floor(sorted.length / 2)],
          p99Ms: sorted.at(-1),
          versus: `peak RSS growth ${[...s4.growth].filter(([, b]) => b > 1024 * 1024).map(([c, b]) => `${c.name.replace('distributed-', '')} ${mb(b).toFixed(0)} MB`).join(', ')} = ${(worst[1] / workbook.bytes).toFixed(1)}× file`,
          target: `growth < ${targets.uploadGrowthFactor}× file (${mb(limit).toFixed(0)} MB)`,
          pass: [...s4.growth.values()].every((b) => b < limit),
          note: 'times: upload',
        });
      }
    }

    // --- S5: the notifier ------------------------------------------------------------------
    if (measures('S5')) {
      const s5 = await notifierScenario(bench, s5Prefix, standIn, s5Notifier.child, config.notifierEvents);
      rows.push({
        id: 'S5',
        scenario: `notifier process (Redis badges): ${config.notifierEvents.toLocaleString('en-US')} \`created\` events → FCM stand-in`,
        rate: s5.rate,
        rateUnit: 'notifications/s',
        target: `≥ ${targets.notificationsPerSecond.toLocaleString('en-US')}/s`,
        pass: s5.rate >= targets.notificationsPerSecond && s5.delivered === config.notifierEvents,
        note: s5.delivered < config.notifierEvents ? `only ${s5.delivered} delivered` : undefined,
      });
    }

    // --- report ---------------------------------------------------------------------------
    const memory = bench.memory.report();
    const foreignShare = bench.foreign.share();
    const cpu = cpus();
    const context = [
      `${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC, run ${runId}, ${((Date.now() - runStarted) / 1000).toFixed(0)} s in all`,
      `${cpu.length} × ${cpu[0]?.model.trim() ?? 'CPU'}, Node ${process.version}; load generator autocannon in the bench process, on the same machine; everything on 127.0.0.1`,
      `A1, A2, S1, S2: ${config.connections} connections, ${config.rounds} rounds of ${config.warmupS} s warm-up then ${config.durationS} s, each scenario's rounds combined${config.saturationConnections > 0 ? `, then one round each at ${config.saturationConnections} connections` : ''}; S3: ${config.listConnections} connections, ${config.listDurationS} s; p50/p99 from every answer's own latency (µs resolution)`,
      `services at LOG_LEVEL=${config.logLevel} (access log per request), logs to files; S1/S2 devices have no push token (no notification per push; S5 measures notifications)`,
      `machine load average at start ${loadAtStart.map((v) => v.toFixed(2)).join(' / ')}; CPU used by processes other than the bench, its children, RabbitMQ and Redis during measurements: ${(foreignShare * 100).toFixed(0)}% of the machine${foreignShare > 0.1 ? ' (busy: treat absolute numbers with care; ratios share the noise)' : ' (quiet)'}`,
    ];
    notes.push(
      'Distributed mode: each process is `services/<name>/dist/main.js` (`npm run start:<name>`) with AMQP_PREFIX and a Redis key prefix of the run\'s own. S5\'s notifier is notifier/dist/main.js\'s code with the FCM stand-in as its FCM (bench/src/servers/notifier-with-stand-in.ts), alone under a prefix of its own.',
    );
    if (config.only.size > 0) context.push(`only ${[...config.only].join(', ')} (BENCH_ONLY)`);
    const markdown = renderMarkdown({ rows, memory, context, notes });
    mkdirSync(resultsDir, { recursive: true });
    // A partial run never replaces the full one.
    const resultFile = config.only.size > 0 ? 'partial.md' : 'latest.md';
    writeFileSync(join(resultsDir, resultFile), `# Benchmark results (npm run bench)\n\n${markdown}`);
    process.stdout.write(`\n${markdown}\nwritten to bench/results/${resultFile}\n`);
  } finally {
    await cleanUp();
  }
}

process.once('SIGINT', () => {
  log('interrupted: stopping the processes and removing what the run created');
  void cleanUp().finally(() => process.exit(130));
});

main().catch(async (error: unknown) => {
  process.stderr.write(`bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  await cleanUp();
  process.exit(1);
});
