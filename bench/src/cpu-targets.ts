import { processJiffies, type Child } from './children';
import { targets } from './config';
import type { LoadResult } from './load';
import type { IdleCpu, Row } from './report';

/** Microseconds of CPU one clock tick of /proc is (1/100 s). */
const tickUs = 10_000;

/**
 * CPU a request, every process that did the work together (issue 24's figure), in µs: the
 * processes under test, RabbitMQ, Redis, the receiver; not the load generator, and not a
 * "main thread" reading (it is a part of its process's, already counted).
 */
export function totalCpuUs(cpuTicks: Map<string, number>, requests: number): number {
  let ticks = 0;
  for (const [name, used] of cpuTicks) if (name !== 'load generator' && !name.endsWith(' main thread')) ticks += used;
  return (ticks * tickUs) / Math.max(requests, 1);
}

export interface CpuReading {
  /** Requests (or deliveries) done. */
  count: number;
  cpuUs: number;
}

export const cpuReading = (cpuTicks: Map<string, number>, count: number): CpuReading => ({ count, cpuUs: totalCpuUs(cpuTicks, count) });

const us = (value: number) => `${Math.round(value).toLocaleString('en-US')} µs`;

/**
 * S1 against A4, S2 against A5, S6 against A6: CPU a request, all processes, at most
 * `factor` times the anchor's. `arrival`: S6's times, submit → arrived, against issue 24's
 * 50 ms p50 / 250 ms p99.
 */
export function cpuRatioRow(
  id: string,
  scenario: string,
  result: CpuReading & Pick<LoadResult, 'p50Ms' | 'p99Ms'> & { cpu?: string },
  anchor: CpuReading,
  anchorId: string,
  factor: number,
  arrival = false,
): Row {
  const ratio = result.cpuUs / anchor.cpuUs;
  const inTime = !arrival || (result.p50Ms <= targets.arrivalP50Ms && result.p99Ms <= targets.arrivalP99Ms);
  return {
    id,
    scenario: `${scenario}: CPU a request, all processes${arrival ? '; submit → arrived' : ''}`,
    p50Ms: result.p50Ms,
    p99Ms: result.p99Ms,
    versus: `${us(result.cpuUs)} = ${ratio.toFixed(2)}× ${anchorId}'s ${us(anchor.cpuUs)}`,
    target: `≤ ${factor}× ${anchorId} CPU${arrival ? `; p50 ≤ ${targets.arrivalP50Ms} ms, p99 ≤ ${targets.arrivalP99Ms} ms` : ''}`,
    pass: ratio <= factor && inTime,
    cpu: result.cpu,
  };
}

/**
 * Each process's CPU over `seconds` with no load at all, read from /proc at both ends
 * (every thread of it: the SQLite checkpointer's, libuv's, V8's). All at once: the window
 * is the same for every process.
 */
export async function idleCpu(processes: Child[], seconds: number): Promise<IdleCpu[]> {
  const before = processes.map((child) => processJiffies(child.pid));
  const started = performance.now();
  await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
  const elapsedUs = (performance.now() - started) * 1000;
  return processes.map((child, i) => {
    const share = ((processJiffies(child.pid) - before[i]!) * tickUs) / elapsedUs;
    return { name: child.name, seconds, coreShare: share, pass: share < targets.idleCoreShare };
  });
}
