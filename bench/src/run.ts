import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createBus } from '@formcast/bus';
import { createEnvelope, pushEvents, type OneshotEventPayload } from '@formcast/contracts';
import { createLogger } from '@formcast/platform';
import { createPdfEmailDestination, createWebhookDestination, setUpOrganization, timedCall, type BenchOrganization } from './api';
import { bulkRow, bulkScenario } from './bulk-scenario';
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
import { benchDist, config, deliveryConnections, measures, repoRoot, resultsDir, targets } from './config';
import { postBare, ReceiverClient, submitAndDeliver, type DeliveryResult } from './delivery-scenario';
import { cpuRatioRow, cpuReading, idleCpu } from './cpu-targets';
import { combine, runLoad, type LoadResult, type LoadSpec } from './load';
import { renderMarkdown, type IdleCpu, type ProcessMemory, type Row } from './report';
import { oneshotBody, pushPath, tagQuestion } from './request-shape';
import { deleteTopology, startDistributedSystem, startEmbeddedSystem, startStandInNotifier, type System } from './systems';
import { TraceReceiver, type TracesReceived } from './trace-receiver';
import { fairnessScenario } from './scenarios/s8-fairness';
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

  /**
   * Issue 23: each process's peak RSS against A1's (a bare express app's) in the same run:
   * embedded ≤ 1.3× it, each distributed service ≤ 1.0× it; anchors and bench helpers have no target.
   */
  report(): ProcessMemory[] {
    const anchorPeak = (child: Child | undefined) => Math.max(0, ...(child ? [...(this.peaks.get(child)?.values() ?? [])] : []));
    const a1Mb = mb(anchorPeak(this.processes.find((child) => child.name === 'anchor-a1')));
    const limitOf = (name: string): number | undefined => {
      if (a1Mb === 0) return undefined;
      if (name.startsWith('embedded')) return targets.rssRatioToA1.embedded;
      if (name.startsWith('distributed-')) return targets.rssRatioToA1.service;
      return undefined;
    };
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
        ...(() => {
          const ratio = limitOf(child.name);
          if (ratio === undefined) return { target: '' };
          return { target: `≤ ${ratio}× A1's ${a1Mb} MB (${(mb(peak) / a1Mb).toFixed(2)}×)`, pass: mb(peak) <= ratio * a1Mb };
        })(),
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

/** A measured load; `traces`: what the OTLP receiver had from the system during it (S1T, S2T). */
type Measured = LoadResult & { cpuTicks: Map<string, number>; traces?: TracesReceived };

/** CPU a request, by process: "gateway 530, RabbitMQ 430" (µs; under 5 left out). */
function cpuPerRequest(result: Pick<Measured, 'ok' | 'cpuTicks'>): string | undefined {
  if (result.cpuTicks.size === 0) return undefined;
  return [...result.cpuTicks]
    .map(([name, ticks]): [string, number] => [name, (ticks * 10_000) / Math.max(result.ok, 1)])
    .filter(([, us]) => us >= 5)
    .map(([name, us]) => `${name} ${Math.round(us).toLocaleString('en-US')}`)
    .join(', ');
}

/** Rounds of one scenario as one measurement. */
function combineMeasured(results: Measured[]): LoadResult & { cpuTicks: Map<string, number>; cpu?: string; traces?: TracesReceived } {
  const cpuTicks = new Map<string, number>();
  for (const result of results) for (const [name, ticks] of result.cpuTicks) cpuTicks.set(name, (cpuTicks.get(name) ?? 0) + ticks);
  const combined = { ...combine(results), cpuTicks };
  const traced = results.flatMap((result) => (result.traces ? [result.traces] : []));
  const traces = traced.length === 0 ? undefined : traced.reduce((sum, t) => ({
    requests: sum.requests + t.requests,
    bytes: sum.bytes + t.bytes,
    spans: sum.spans + t.spans,
    refused: sum.refused + t.refused,
  }));
  return { ...combined, cpu: cpuPerRequest(combined), traces };
}

/** What arrived at the OTLP receiver between two readings. */
function tracesBetween(before: TracesReceived, after: TracesReceived): TracesReceived {
  return { requests: after.requests - before.requests, bytes: after.bytes - before.bytes, spans: after.spans - before.spans, refused: after.refused - before.refused };
}

/**
 * A warm-up load, then the measured one, inside a memory phase and a foreign-CPU window.
 * `traces`: reads what the OTLP receiver had from the system, before and after the measured load.
 */
async function measureOnce(bench: Bench, label: string, spec: LoadSpec, watch: CpuWatch = [], traces?: () => Promise<TracesReceived>): Promise<Measured> {
  if (config.warmupS > 0 && !spec.amount) await runLoad({ ...spec, durationS: config.warmupS });
  return bench.memory.phase(
    label,
    async () => {
      const tracesBefore = await traces?.();
      bench.foreign.begin(ourPids(bench));
      const before = watch.map(([, ticks]) => ticks());
      const result = await runLoad(spec);
      const cpuTicks = new Map(watch.map(([name, ticks], i) => [name, ticks() - before[i]!]));
      bench.foreign.end();
      const received = traces && tracesBefore ? tracesBetween(tracesBefore, await traces()) : undefined;
      log(
        `${label}: ${result.requestsPerSecond.toFixed(0)} req/s, p50 ${result.p50Ms.toFixed(2)} ms, p99 ${result.p99Ms.toFixed(2)} ms` +
          (result.failed > 0 ? `, ${result.failed} failed (${JSON.stringify(result.statuses)})` : '') +
          (received ? `; OTLP receiver: ${describeTraces(received, result.ok)}` : ''),
      );
      return { ...result, cpuTicks, traces: received };
    },
  );
}

/** "41,230 spans (5.0 a request) in 83 exports, 3.9 MB". */
function describeTraces(received: TracesReceived, requests: number): string {
  return (
    `${received.spans.toLocaleString('en-US')} spans (${(received.spans / Math.max(requests, 1)).toFixed(1)} a request) in ` +
    `${received.requests.toLocaleString('en-US')} exports, ${mb(received.bytes).toFixed(1)} MB` +
    (received.refused > 0 ? `, ${received.refused} unreadable` : '')
  );
}

async function measure(bench: Bench, label: string, spec: LoadSpec, watch: CpuWatch = []): Promise<LoadResult & { cpu?: string }> {
  return combineMeasured([await measureOnce(bench, label, spec, watch)]);
}

/** S6 or A3, inside a memory phase and a foreign-CPU window, with the CPU each delivery took. */
async function measureDelivery(bench: Bench, label: string, work: () => Promise<DeliveryResult>, watch: CpuWatch, children?: Child[]) {
  return bench.memory.phase(
    label,
    async () => {
      bench.foreign.begin(ourPids(bench));
      const before = watch.map(([, ticks]) => ticks());
      const result = await work();
      const cpuTicks = new Map(watch.map(([name, ticks], i) => [name, ticks() - before[i]!]));
      bench.foreign.end();
      const accepted = result.submitted ? `; accepted ${result.submitted.requestsPerSecond.toFixed(0)}/s, ${result.submitted.failed} failed` : '';
      log(`${label}: ${result.delivered} delivered in ${result.seconds.toFixed(2)} s, ${result.rate.toFixed(0)}/s, p50 ${result.p50Ms.toFixed(2)} ms, p99 ${result.p99Ms.toFixed(2)} ms${accepted}`);
      return { ...result, cpuTicks, cpu: cpuPerRequest({ ok: result.delivered, cpuTicks }) };
    },
    children,
  );
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

/** S1K: the same pushes, each with a new Idempotency-Key (never a replay): what keys cost. */
function withNewIdempotencyKeys(spec: LoadSpec): LoadSpec {
  const run = randomBytes(6).toString('hex');
  let sent = 0;
  return { ...spec, perRequest: () => ({ headers: { 'idempotency-key': `${run}-${(sent += 1)}` } }) };
}

const failures = (result: LoadResult) => (result.failed > 0 ? `${result.failed} failed answers` : undefined);

/** A row's rate and latencies from a load run. */
const loadFigures = (result: LoadResult) => ({ rate: result.requestsPerSecond, p50Ms: result.p50Ms, p99Ms: result.p99Ms });

function keyCostRow(keyed: LoadResult & { cpu?: string }, plain: LoadResult, suffix = ''): Row {
  const throughput = keyed.requestsPerSecond / plain.requestsPerSecond;
  return {
    id: 'S1K',
    scenario: `S1 with a new Idempotency-Key on every request${suffix}`,
    ...loadFigures(keyed),
    versus: `${throughput.toFixed(2)}× S1 req/s, ${(keyed.p99Ms / plain.p99Ms).toFixed(2)}× S1 p99`,
    target: `≥ ${targets.keyedThroughputRatio}× S1 req/s`,
    pass: throughput >= targets.keyedThroughputRatio && keyed.failed === 0,
    note: failures(keyed),
    cpu: keyed.cpu,
  };
}

/** S1M/S2M: a scenario as it runs (metrics on, the default) against the same with METRICS_ENABLED=false. */
function metricsCostRow(id: string, scenario: string, metered: LoadResult & { cpu?: string }, unmetered: LoadResult, base: string): Row {
  const throughput = metered.requestsPerSecond / unmetered.requestsPerSecond;
  return {
    id,
    scenario,
    ...loadFigures(unmetered),
    versus: `${base} (metrics on) at ${throughput.toFixed(2)}× this req/s, ${(metered.p99Ms / unmetered.p99Ms).toFixed(2)}× its p99`,
    target: `${base} ≥ ${targets.metricsThroughputRatio}× req/s`,
    pass: throughput >= targets.metricsThroughputRatio && unmetered.failed === 0 && metered.failed === 0,
    note: failures(unmetered),
  };
}

/**
 * S1T/S2T: a scenario with its traces exported to the local OTLP receiver, against the same
 * system without. A reading in which no span arrived (or one the receiver could not read) is
 * not one: it fails, whatever its rate.
 */
function tracesCostRow(id: string, scenario: string, traced: LoadResult & { cpu?: string; traces?: TracesReceived }, untraced: LoadResult, base: string): Row {
  const throughput = traced.requestsPerSecond / untraced.requestsPerSecond;
  const received = traced.traces ?? { requests: 0, bytes: 0, spans: 0, refused: 0 };
  const notReading =
    received.spans === 0
      ? 'no span reached the OTLP receiver: not a reading'
      : received.refused > 0
        ? `the OTLP receiver could not read ${received.refused} exports`
        : undefined;
  return {
    id,
    scenario,
    ...loadFigures(traced),
    versus: `${throughput.toFixed(2)}× ${base} req/s, ${(traced.p99Ms / untraced.p99Ms).toFixed(2)}× ${base} p99; received ${describeTraces(received, traced.ok)}`,
    target: `≥ ${targets.tracesThroughputRatio}× ${base} req/s`,
    pass: throughput >= targets.tracesThroughputRatio && traced.failed === 0 && untraced.failed === 0 && notReading === undefined,
    note: notReading ?? failures(traced),
    cpu: traced.cpu,
  };
}

function ratioRow(id: string, scenario: string, result: LoadResult & { cpu?: string }, anchor: LoadResult, anchorId: string): Row {
  const throughput = result.requestsPerSecond / anchor.requestsPerSecond;
  const p99 = result.p99Ms / anchor.p99Ms;
  return {
    id,
    scenario,
    ...loadFigures(result),
    versus: `${throughput.toFixed(2)}× ${anchorId} req/s, ${p99.toFixed(2)}× ${anchorId} p99`,
    target: `≥ ${targets.throughputRatio}× req/s, p99 ≤ ${targets.p99Ratio}×`,
    pass: throughput >= targets.throughputRatio && p99 <= targets.p99Ratio && result.failed === 0,
    note: failures(result),
    cpu: result.cpu,
  };
}

function anchorRow(id: string, scenario: string, result: LoadResult & { cpu?: string }): Row {
  return { id, scenario, ...loadFigures(result), target: 'anchor', note: failures(result), cpu: result.cpu };
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

/** Submissions made in each mode before S6 is measured: the code on their path runs optimised by then. */
const s6WarmUp = 500;
/** The devices whose submissions S6 makes, in turn. */
const s6Devices = 50;

/** S6's receiver (a helper of the bench, like the FCM stand-in) and an organization in each mode whose template delivers to it. */
async function setUpDeliveries(bench: Bench, embedded: System, distributed: System) {
  const child = startNode('webhook-receiver', join(benchDist, 'servers/webhook-receiver.js'), { BENCH_TAG_QUESTION: tagQuestion });
  bench.infrastructure.push(child.pid);
  const { uri } = await child.message<{ uri: string }>((m) => m?.ready);
  const [inEmbedded, inDistributed] = await Promise.all([
    setUpOrganization(embedded.origin, embedded.adminToken, 'Bench S6', s6Devices),
    setUpOrganization(distributed.origin, distributed.adminToken, 'Bench S6 distributed', s6Devices),
  ]);
  await createWebhookDestination(embedded.origin, inEmbedded, uri);
  await createWebhookDestination(distributed.origin, inDistributed, uri);
  return { receiver: new ReceiverClient(child), uri, embedded: inEmbedded, distributed: inDistributed };
}

/** S9's mailbox (a real SMTP server, a process of its own) and an organization in each mode whose template mails its submissions there as PDFs. */
async function setUpMailedDocuments(bench: Bench, embedded: System, distributed: System) {
  const child = startNode('smtp-receiver', join(benchDist, 'servers/smtp-receiver.js'), {});
  bench.infrastructure.push(child.pid);
  const { port } = await child.message<{ port: number }>((m) => m?.ready);
  const [inEmbedded, inDistributed] = await Promise.all([
    setUpOrganization(embedded.origin, embedded.adminToken, 'Bench S9', s6Devices),
    setUpOrganization(distributed.origin, distributed.adminToken, 'Bench S9 distributed', s6Devices),
  ]);
  await createPdfEmailDestination(embedded.origin, inEmbedded, port, tagQuestion);
  await createPdfEmailDestination(distributed.origin, inDistributed, port, tagQuestion);
  return { receiver: new ReceiverClient(child), embedded: inEmbedded, distributed: inDistributed };
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

/**
 * Issue 24's rows: S1's CPU a request against A4's, S2's against A5's (those measured
 * `atIds`, all by default).
 */
function anchoredCpuRows(result: (id: 'A4' | 'S1' | 'A5' | 'S2') => LoadResult & { cpuTicks: Map<string, number>; cpu?: string }, suffix: string, atIds?: string[]): Row[] {
  const has = (id: 'A4' | 'S1' | 'A5' | 'S2') => measures(id) && (atIds === undefined || atIds.includes(id));
  const reading = (id: 'A4' | 'S1' | 'A5' | 'S2') => {
    const r = result(id);
    return { ...r, ...cpuReading(r.cpuTicks, r.ok) };
  };
  const rows: Row[] = [];
  if (has('A4')) rows.push(anchorRow('A4', `express + one SQLite transaction (the oneshot and its outbox row), 202${suffix}`, result('A4')));
  if (has('A4') && has('S1')) rows.push(cpuRatioRow('S1', `embedded push${suffix}`, reading('S1'), reading('A4'), 'A4', targets.cpuRatio.S1));
  if (has('A5')) rows.push(anchorRow('A5', `A2 + one persistent, confirmed event, consumed with a manual ack${suffix}`, result('A5')));
  if (has('A5') && has('S2')) rows.push(cpuRatioRow('S2', `distributed push${suffix}`, reading('S2'), reading('A5'), 'A5', targets.cpuRatio.S2));
  return rows;
}

/** A6's process (servers/anchor-submission-relay.ts), posting to S6's receiver, primed with what S6 delivered. */
async function startSubmissionAnchor(receiverUri: string, deliveredBody: string): Promise<{ child: Child; port: number }> {
  const child = startNode('anchor-a6', join(benchDist, 'servers/anchor-submission-relay.js'), { ANCHOR_RECEIVER_URI: receiverUri, BENCH_TAG_QUESTION: tagQuestion });
  const { port } = await child.message<{ port: number }>((m) => m?.ready);
  child.send({ deliveryBody: deliveredBody });
  await child.message((m) => m?.primed);
  return { child, port };
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
    // Issue 24's anchors of the irreducible work: A4 (S1's), A5 (S2's); A6 (S6's) starts with S6's receiver.
    const a4 = measures('A4') ? startNode('anchor-a4', join(benchDist, 'servers/anchor-push-write.js'), {}) : null;
    const a5Queue = `${runId}.anchor5`;
    const a5Consumer = measures('A5') ? startNode('anchor-a5-consumer', join(benchDist, 'servers/anchor-consumer.js'), { AMQP_URL: config.amqpUrl, ANCHOR_QUEUE: a5Queue, ANCHOR_EVENTS: '1' }) : null;
    if (a5Consumer) {
      stops.push(() => deleteTopology(prefix, [], [a5Queue, `${a5Queue}.events`]));
      await a5Consumer.message((m) => m?.ready);
    }
    const a5 = a5Consumer ? startNode('anchor-a5', join(benchDist, 'servers/anchor.js'), { ANCHOR_MODE: 'amqp', PORT: '0', AMQP_URL: config.amqpUrl, ANCHOR_QUEUE: a5Queue }) : null;
    const [a4Port, a5Port] = await Promise.all([a4, a5].map(async (child) => (child ? (await child.message<{ port: number }>((m) => m?.ready)).port : 0)));

    log('starting embedded mode and distributed mode');
    const embedded = await startEmbeddedSystem();
    stops.push(() => embedded.stop());
    const distributed = await startDistributedSystem({ prefix, redisPrefix });
    stops.push(() => distributed.stop());
    const s5Prefix = `${runId}_s5`;
    const s5Notifier = await startStandInNotifier({ prefix: s5Prefix, redisPrefix: `${s5Prefix}:`, fcmPort });
    stops.push(() => s5Notifier.stop());
    bench.memory.add(a1, a2, consumer, ...[a4, a5, a5Consumer].filter((c): c is Child => c !== null), ...embedded.processes, ...distributed.processes, s5Notifier.child);
    const formcastProcesses = [...embedded.processes, ...distributed.processes];
    // S1M/S2M: the same systems again with METRICS_ENABLED=false, measured beside S1/S2 (metrics on, the default).
    const metricsOff = { env: { METRICS_ENABLED: 'false' }, suffix: ' (metrics off)' };
    const unmetered = {
      embedded: measures('S1M') ? await startEmbeddedSystem(metricsOff) : null,
      distributed: measures('S2M') ? await startDistributedSystem({ prefix: `${runId}_unmetered`, redisPrefix: `${runId}:unmetered:`, ...metricsOff }) : null,
    };
    // S1T/S2T: the same systems again, exporting their traces (OTLP/HTTP, protobuf) to a local
    // receiver, measured beside S1/S2 (no traces, the default).
    const traceReceiver = measures('S1T') || measures('S2T') ? await TraceReceiver.start() : null;
    if (traceReceiver) bench.infrastructure.push(traceReceiver.child.pid);
    const tracesExported = (system: string) => ({ env: traceReceiver!.exportSettings(system), suffix: ' (traces exported)' });
    const traced = {
      embedded: measures('S1T') ? await startEmbeddedSystem(tracesExported('s1t')) : null,
      distributed: measures('S2T') ? await startDistributedSystem({ prefix: `${runId}_traced`, redisPrefix: `${runId}:traced:`, ...tracesExported('s2t') }) : null,
    };
    for (const system of [unmetered.embedded, unmetered.distributed, traced.embedded, traced.distributed]) {
      if (!system) continue;
      stops.push(() => system.stop());
      bench.memory.add(...system.processes);
    }

    log(`setting up organizations (${config.devices} devices each for S1/S2)`);
    const [s1Org, s2Org, s3Org, s4Org, s4dOrg] = await Promise.all([
      setUpOrganization(embedded.origin, embedded.adminToken, 'Bench S1', config.devices),
      setUpOrganization(distributed.origin, distributed.adminToken, 'Bench S2', config.devices),
      setUpOrganization(embedded.origin, embedded.adminToken, 'Bench S3', 20),
      setUpOrganization(embedded.origin, embedded.adminToken, 'Bench S4', 1),
      setUpOrganization(distributed.origin, distributed.adminToken, 'Bench S4 distributed', 1),
    ]);
    const [s1mOrg, s2mOrg] = await Promise.all([
      unmetered.embedded && setUpOrganization(unmetered.embedded.origin, unmetered.embedded.adminToken, 'Bench S1M', config.devices),
      unmetered.distributed && setUpOrganization(unmetered.distributed.origin, unmetered.distributed.adminToken, 'Bench S2M', config.devices),
    ]);
    const [s1tOrg, s2tOrg] = await Promise.all([
      traced.embedded && setUpOrganization(traced.embedded.origin, traced.embedded.adminToken, 'Bench S1T', config.devices),
      traced.distributed && setUpOrganization(traced.distributed.origin, traced.distributed.adminToken, 'Bench S2T', config.devices),
    ]);
    const s6 = measures('S6') ? await setUpDeliveries(bench, embedded, distributed) : null;
    const s9 = measures('S9') ? await setUpMailedDocuments(bench, embedded, distributed) : null;
    const workbook = await benchWorkbook();
    const anchorOrg = { authorization: 'Basic YW5jaG9yOng=', formNamespace: s1Org.formNamespace, deviceIdentifiers: s1Org.deviceIdentifiers };

    await new Promise((resolve) => setTimeout(resolve, 1000));
    bench.memory.recordIdle();
    // Issue 24: each Formcast process's CPU with nothing to do, before any load.
    let idle: IdleCpu[] = [];
    if (config.idleS > 0) {
      const setUpAt = performance.now() - 1000;
      const shares = (readings: IdleCpu[]) => readings.map((p) => `${p.name} ${(p.coreShare * 100).toFixed(3)}%`).join(', ');
      log(`watching every process for ${config.idleS} s right after the set-up (its after-work; not judged)`);
      const afterWork = await idleCpu(formcastProcesses, config.idleS);
      log(`right after the set-up: ${shares(afterWork)}`);
      const settleMs = setUpAt + config.idleSettledAfterS * 1000 - performance.now();
      if (settleMs > 0) await new Promise((resolve) => setTimeout(resolve, settleMs));
      log(`watching every process idle for ${config.idleS} s, ${config.idleSettledAfterS} s after the set-up`);
      const settled = await idleCpu(formcastProcesses, config.idleS);
      log(`idle: ${shares(settled)}`);
      idle = settled.map((reading, i) => ({ ...reading, settledAfterS: config.idleSettledAfterS, afterWorkShare: afterWork[i]!.coreShare }));
    }

    // --- A1, S1, A2, S2: back to back, so machine noise is shared ------------------------
    // The load generator's own code needs ~10 s of traffic before it runs at full speed
    // (JIT); without this, the first scenario (A1) would be measured slow.
    log('warming up the load generator');
    await runLoad({ ...pushLoad(`http://127.0.0.1:${a1Port}`, anchorOrg), durationS: 8 });
    // In rounds (A1, S1, A2, S2, then again), each scenario's rounds taken as one
    // measurement: a slow spell of the machine then weighs on anchors and scenarios alike.
    const infra = infrastructureByName();
    const rounds: Record<'A1' | 'A4' | 'S1' | 'S1K' | 'S1M' | 'S1T' | 'A2' | 'A5' | 'S2' | 'S2M' | 'S2T', Measured[]> = { A1: [], A4: [], S1: [], S1K: [], S1M: [], S1T: [], A2: [], A5: [], S2: [], S2M: [], S2T: [] };
    const receiverCpu: Array<[string, number[]]> = traceReceiver ? [['OTLP receiver', [traceReceiver.child.pid]]] : [];
    const pushScenarios = (connections: number, label = '') => ({
      A1: () => measureOnce(bench, `A1${label}`, pushLoad(`http://127.0.0.1:${a1Port}`, anchorOrg, config.durationS, connections), cpuWatch([a1], [])),
      S1: () => measureOnce(bench, `S1${label}`, pushLoad(embedded.origin, s1Org, config.durationS, connections), cpuWatch(embedded.processes, [], embedded.processes)),
      S1K: () =>
        measureOnce(bench, `S1K${label}`, withNewIdempotencyKeys(pushLoad(embedded.origin, s1Org, config.durationS, connections)), cpuWatch(embedded.processes, [], embedded.processes)),
      S1M: () => {
        const system = unmetered.embedded!;
        return measureOnce(bench, `S1 metrics off${label}`, pushLoad(system.origin, s1mOrg!, config.durationS, connections), cpuWatch(system.processes, [], system.processes));
      },
      S2M: () => {
        const system = unmetered.distributed!;
        return measureOnce(bench, `S2 metrics off${label}`, pushLoad(system.origin, s2mOrg!, config.durationS, connections), cpuWatch(system.processes, infra));
      },
      S1T: () => {
        const system = traced.embedded!;
        const watch = cpuWatch(system.processes, receiverCpu, system.processes);
        return measureOnce(bench, `S1 traces exported${label}`, pushLoad(system.origin, s1tOrg!, config.durationS, connections), watch, () => traceReceiver!.received('s1t'));
      },
      S2T: () => {
        const system = traced.distributed!;
        const watch = cpuWatch(system.processes, [...infra, ...receiverCpu]);
        return measureOnce(bench, `S2 traces exported${label}`, pushLoad(system.origin, s2tOrg!, config.durationS, connections), watch, () => traceReceiver!.received('s2t'));
      },
      A2: () => measureOnce(bench, `A2${label}`, pushLoad(`http://127.0.0.1:${a2Port}`, anchorOrg, config.durationS, connections), cpuWatch([a2, consumer], infra)),
      A4: () => measureOnce(bench, `A4${label}`, pushLoad(`http://127.0.0.1:${a4Port}`, anchorOrg, config.durationS, connections), cpuWatch([a4!], [])),
      A5: () => measureOnce(bench, `A5${label}`, pushLoad(`http://127.0.0.1:${a5Port}`, anchorOrg, config.durationS, connections), cpuWatch([a5!, a5Consumer!], infra)),
      S2: () => measureOnce(bench, `S2${label}`, pushLoad(distributed.origin, s2Org, config.durationS, connections), cpuWatch(distributed.processes, infra)),
    });
    const pushIds = (['A1', 'A4', 'S1', 'S1K', 'S1M', 'S1T', 'A2', 'A5', 'S2', 'S2M', 'S2T'] as const).filter(measures);
    const atConnections = pushScenarios(config.connections);
    // S1M/S1T and S2M/S2T measure twins of S1 and S2 (metrics off; traces exported) right after
    // them; each round the twins of one system take one another's places in turn (two: they
    // swap every other round), so none always follows another.
    const twinFamilies = [['S1', 'S1M', 'S1T'], ['S2', 'S2M', 'S2T']] as const;
    const roundOrder = (round: number) => {
      const order = [...pushIds];
      for (const family of twinFamilies) {
        const members = family.filter((id) => pushIds.includes(id));
        const places = members.map((id) => pushIds.indexOf(id));
        places.forEach((place, i) => (order[place] = members[(i + round - 1) % members.length]!));
      }
      return order;
    };
    for (let round = 1; round <= config.rounds; round++) {
      for (const id of roundOrder(round)) rounds[id].push(await atConnections[id]());
    }
    const result = (id: keyof typeof rounds) => combineMeasured(rounds[id]);
    if (measures('A1')) rows.push(anchorRow('A1', 'bare express, 202', result('A1')));
    if (measures('A2')) rows.push(anchorRow('A2', 'express + amqplib direct reply-to round trip', result('A2')));
    if (measures('S1')) rows.push(ratioRow('S1', `embedded: POST /clients/<device>/oneshots.json, ${config.devices} devices`, result('S1'), result('A1'), 'A1'));
    if (measures('S1K')) rows.push(keyCostRow(result('S1K'), result('S1')));
    if (measures('S2')) rows.push(ratioRow('S2', `distributed: the same`, result('S2'), result('A2'), 'A2'));
    if (measures('S1M')) rows.push(metricsCostRow('S1M', 'S1 with METRICS_ENABLED=false (S1 runs with metrics on)', result('S1'), result('S1M'), 'S1'));
    if (measures('S2M')) rows.push(metricsCostRow('S2M', 'S2 with METRICS_ENABLED=false (S2 runs with metrics on)', result('S2'), result('S2M'), 'S2'));
    if (measures('S1T')) rows.push(tracesCostRow('S1T', 'S1 with traces exported (OTLP/HTTP protobuf, to a local receiver)', result('S1T'), result('S1'), 'S1'));
    rows.push(...anchoredCpuRows(result, ''));
    if (measures('S2T')) rows.push(tracesCostRow('S2T', 'S2 with traces exported from every process (the same)', result('S2T'), result('S2'), 'S2'));
    // S7 beside them: the same pushes, 1,000 in one bulk request.
    if (measures('S7')) {
      for (const [mode, origin, org, single] of [['embedded', embedded.origin, s1Org, 'S1'], ['distributed', distributed.origin, s2Org, 'S2']] as const) {
        const singles = rounds[single].length > 0 ? { id: single, rate: result(single).requestsPerSecond } : undefined;
        rows.push(bulkRow(mode, await bulkScenario(origin, org, config.bulkRequests), singles));
      }
    }

    // The same at saturation: one round each, the anchors beside their scenarios again.
    if (config.saturationConnections > 0) {
      const saturated = pushScenarios(config.saturationConnections, ` at ${config.saturationConnections}`);
      const at: Partial<Record<keyof typeof rounds, ReturnType<typeof combineMeasured>>> = {};
      for (const id of pushIds) at[id] = combineMeasured([await saturated[id]()]);
      const suffix = `, ${config.saturationConnections} connections`;
      if (at.A1) rows.push(anchorRow('A1', `bare express, 202${suffix}`, at.A1));
      if (at.A2) rows.push(anchorRow('A2', `express + amqplib round trip${suffix}`, at.A2));
      if (at.S1 && at.A1) rows.push(ratioRow('S1', `embedded${suffix}`, at.S1, at.A1, 'A1'));
      if (at.S1K && at.S1) rows.push(keyCostRow(at.S1K, at.S1, suffix));
      if (at.S2 && at.A2) rows.push(ratioRow('S2', `distributed${suffix}`, at.S2, at.A2, 'A2'));
      if (at.S1M && at.S1) rows.push(metricsCostRow('S1M', `S1 with METRICS_ENABLED=false${suffix}`, at.S1, at.S1M, 'S1'));
      if (at.S2M && at.S2) rows.push(metricsCostRow('S2M', `S2 with METRICS_ENABLED=false${suffix}`, at.S2, at.S2M, 'S2'));
      if (at.S1T && at.S1) rows.push(tracesCostRow('S1T', `S1 with traces exported${suffix}`, at.S1T, at.S1, 'S1'));
      if (at.S2T && at.S2) rows.push(tracesCostRow('S2T', `S2 with traces exported${suffix}`, at.S2T, at.S2, 'S2'));
      rows.push(...anchoredCpuRows((id) => at[id]!, suffix, Object.keys(at)));
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
        ...loadFigures(result),
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

    // --- S6: submissions delivered to a local receiver, beside A3 -------------------------
    if (s6) {
      const count = config.submissions;
      const submit = (system: System, org: BenchOrganization, tagPrefix: string, amount = count) => () =>
        submitAndDeliver(system.origin, org, s6.receiver, { tagPrefix, count: amount, connections: config.connections });

      // Warm-ups (JIT, and the anchor's body: what S6 delivered), then A3 and S6 in each mode.
      await submit(embedded, s6.embedded, 'warm-e-', s6WarmUp)();
      await submit(distributed, s6.distributed, 'warm-d-', s6WarmUp)();
      const delivered = await s6.receiver.sample();
      if (delivered === null) throw new Error('S6: nothing arrived at the receiver during the warm-up');
      // The client's own code needs a few thousand posts to run at full speed.
      await postBare(s6.uri, delivered, s6.receiver, { tagPrefix: 'warm-a3-', count, connections: deliveryConnections });
      await s6.receiver.clear();

      const receiverCpu: [string, number[]] = ['receiver', [s6.receiver.child.pid]];
      const a3 = await measureDelivery(bench, 'A3', () => postBare(s6.uri, delivered, s6.receiver, { tagPrefix: 'a3-', count, connections: deliveryConnections }), cpuWatch([], [receiverCpu]), []);
      const s6e = await measureDelivery(bench, 'S6 embedded', submit(embedded, s6.embedded, 's6e-'), cpuWatch(embedded.processes, [receiverCpu], embedded.processes));
      const s6d = await measureDelivery(bench, 'S6 distributed', submit(distributed, s6.distributed, 's6d-'), cpuWatch(distributed.processes, [...infra, receiverCpu]));
      // A6: S6's irreducible work (receive, one SQLite write, one POST of the same body), submitted to as S6 is.
      const a6 = measures('A6') ? await startSubmissionAnchor(s6.uri, delivered) : null;
      if (a6) {
        const a6Submit = (tagPrefix: string, amount = count) => () =>
          submitAndDeliver(`http://127.0.0.1:${a6.port}`, s6.embedded, s6.receiver, { tagPrefix, count: amount, connections: config.connections });
        await a6Submit('warm-a6-', s6WarmUp)();
        bench.memory.add(a6.child);
        const a6Result = await measureDelivery(bench, 'A6', a6Submit('a6-'), cpuWatch([a6.child], [receiverCpu]), [a6.child]);
        rows.push({
          id: 'A6',
          scenario: `express receive of S6's submission, one SQLite write, 201, then node:http (keep-alive, ${deliveryConnections} sockets) posting S6's delivered body to the same receiver`,
          rate: a6Result.rate,
          rateUnit: 'delivered/s',
          p50Ms: a6Result.p50Ms,
          p99Ms: a6Result.p99Ms,
          target: 'anchor',
          cpu: a6Result.cpu,
        });
        const a6Cpu = cpuReading(a6Result.cpuTicks, a6Result.delivered);
        for (const [label, result] of [['embedded', s6e], ['distributed', s6d]] as const) {
          rows.push(cpuRatioRow('S6', `${label}: submission → JSON webhook`, { ...result, ...cpuReading(result.cpuTicks, result.delivered) }, a6Cpu, 'A6', targets.cpuRatio.S6, true));
        }
      }
      rows.push({
        id: 'A3',
        scenario: `bare Node HTTP client (node:http, keep-alive, ${deliveryConnections} sockets) posting S6's delivered body to the same receiver`,
        rate: a3.rate,
        rateUnit: 'posts/s',
        p50Ms: a3.p50Ms,
        p99Ms: a3.p99Ms,
        target: 'anchor',
        cpu: a3.cpu,
      });
      for (const [label, result] of [['embedded', s6e], ['distributed', s6d]] as const) {
        const ratio = result.rate / a3.rate;
        const accepted = result.submitted!;
        rows.push({
          id: 'S6',
          scenario: `${label}: POST /device/forms/<form>/submissions → JSON webhook → receiver, ${config.connections} connections, ${count.toLocaleString('en-US')} submissions (times: submit → arrived)`,
          rate: result.rate,
          rateUnit: 'delivered/s',
          p50Ms: result.p50Ms,
          p99Ms: result.p99Ms,
          versus: `${ratio.toFixed(2)}× A3 rate, ${(result.p99Ms / a3.p99Ms).toFixed(1)}× A3 p99; API accepted ${accepted.requestsPerSecond.toFixed(0)}/s`,
          target: `≥ ${targets.deliveryRatio}× A3 rate`,
          pass: ratio >= targets.deliveryRatio && accepted.failed === 0 && result.delivered === accepted.ok,
          note: accepted.failed > 0 ? `${accepted.failed} submissions failed (${JSON.stringify(accepted.statuses)})` : undefined,
          cpu: result.cpu,
        });
      }
    }

    // --- S9: submissions rendered to PDF and mailed to a local SMTP server, beside S6 ---------
    if (s9) {
      const count = config.submissions;
      const submit = (system: System, org: BenchOrganization, tagPrefix: string, amount = count) => () =>
        submitAndDeliver(system.origin, org, s9.receiver, { tagPrefix, count: amount, connections: config.connections });
      // Warm-ups as S6's (fewer for a short run: BENCH_SUBMISSIONS under the warm-up).
      const warmUp = Math.min(s6WarmUp, count);
      await submit(embedded, s9.embedded, 'warm9e-', warmUp)();
      await submit(distributed, s9.distributed, 'warm9d-', warmUp)();
      await s9.receiver.clear();
      const mailboxCpu: [string, number[]] = ['mailbox', [s9.receiver.child.pid]];
      const s9e = await measureDelivery(bench, 'S9 embedded', submit(embedded, s9.embedded, 's9e-'), cpuWatch(embedded.processes, [mailboxCpu], embedded.processes));
      const s9d = await measureDelivery(bench, 'S9 distributed', submit(distributed, s9.distributed, 's9d-'), cpuWatch(distributed.processes, [...infra, mailboxCpu]));
      const s6Rows = rows.filter((row) => row.id === 'S6');
      for (const [label, result] of [['embedded', s9e], ['distributed', s9d]] as const) {
        const accepted = result.submitted!;
        const beside = s6Rows.find((row) => row.scenario.startsWith(label));
        rows.push({
          id: 'S9',
          scenario: `${label}: POST /device/forms/<form>/submissions → PDF (render worker) → email (SMTP) → mailbox, ${config.connections} connections, ${count.toLocaleString('en-US')} submissions (times: submit → arrived)`,
          rate: result.rate,
          rateUnit: 'mailed/s',
          p50Ms: result.p50Ms,
          p99Ms: result.p99Ms,
          versus: beside?.rate ? `${(result.rate / beside.rate).toFixed(2)}× S6 rate (JSON webhook)` : undefined,
          target: 'beside S6',
          note: accepted.failed > 0 ? `${accepted.failed} submissions failed (${JSON.stringify(accepted.statuses)})` : undefined,
          cpu: result.cpu,
        });
      }
    }

    if (measures('S8')) rows.push(...(await fairnessScenario({ prefix, log })));

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
      'Distributed mode: each process is `services/<name>/dist/main.js` (`npm run start:<name>`) with AMQP_PREFIX and a Redis key prefix of the run\'s own; the notifier and the gateway have REDIS_URL (badges; rate limits, as k8s/ runs them). S5\'s notifier is notifier/dist/main.js\'s code with the FCM stand-in as its FCM (bench/src/servers/notifier-with-stand-in.ts), alone under a prefix of its own.',
    );
    if (s6) {
      context.push(
        `S6: ${config.submissions.toLocaleString('en-US')} submissions in each mode after ${s6WarmUp} unmeasured, from ${config.connections} connections, by ${s6Devices} devices in turn, of a form with one JSON webhook destination; rate from the first submission sent to the last delivery arrived; p50/p99 from each submission's sending to its delivery's arrival at the receiver (a process of its own). A3: as many posts from ${deliveryConnections} sockets, timed the same way`,
      );
    }
    if (measures('S1T') || measures('S2T')) {
      context.push(
        `S1T, S2T: twins of the S1/S2 systems with OTEL_EXPORTER_OTLP_ENDPOINT set (every process: ${samplerInUse()} and OTEL_BSP_* defaults, http/protobuf, exported from a worker thread), exporting to a local OTLP/HTTP receiver (bench/src/servers/otlp-receiver.ts, a process of its own that counts the spans in each export and answers 200); spans counted as they arrived during the measured seconds`,
      );
    }
    if (config.only.size > 0) context.push(`only ${[...config.only].join(', ')} (BENCH_ONLY)`);
    const markdown = renderMarkdown({ rows, memory, idle, context, notes });
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

/** The sampler S1T/S2T ran with, as the report names it. */
function samplerInUse(): string {
  if (!config.tracesSampler) return 'the default sampler';
  const arg = config.tracesSamplerArg ? `, OTEL_TRACES_SAMPLER_ARG=${config.tracesSamplerArg}` : '';
  return `OTEL_TRACES_SAMPLER=${config.tracesSampler}${arg} (BENCH_TRACES_SAMPLER; the targets are for the default sampler)`;
}
