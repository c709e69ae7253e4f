import { monitorEventLoopDelay } from 'node:perf_hooks';
import autocannon = require('autocannon');
import { LatencyLog } from '../load';

/**
 * S8's flood, in a process of its own so that its 400 connections do not starve the bench
 * process, where org B's trickle is timed. Reads what to send from the environment, sends it
 * for S8_SECONDS, answers its counts by IPC: `{ flood: { statuses, errors, p50Ms, p99Ms, maxMs, lagMaxMs } }`
 * (latencies of every answer, whatever its status; lagMaxMs: how late this process's own event
 * loop ran at worst, a wait that is in the generator and not in the server).
 */
const env = (name: string) => {
  const value = process.env[name];
  if (value === undefined) throw new Error(`${name} is not set`);
  return value;
};
const devices = env('S8_DEVICES').split(',');
const statuses: Record<string, number> = {};
const latencies = new LatencyLog();
const lag = monitorEventLoopDelay({ resolution: 10 });
lag.enable();
let n = 0;
const rate = Number(env('S8_RATE'));
const options = {
  url: env('S8_ORIGIN'),
  connections: Number(env('S8_CONNECTIONS')),
  duration: Number(env('S8_SECONDS')),
  timeout: 30,
  ...(rate > 0 ? { overallRate: rate } : {}),
  requests: [
    {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: env('S8_AUTHORIZATION') },
      body: env('S8_BODY'),
      setupRequest: (request: object) => ({ ...request, path: `/clients/${devices[n++ % devices.length]}/oneshots.json` }),
    },
  ],
};
const instance = autocannon(options as Parameters<typeof autocannon>[0], (error, result) => {
  if (error) {
    process.stderr.write(`flood failed: ${error.message}\n`);
    process.exit(1);
  }
  process.send?.({ flood: { statuses, errors: result.errors + result.timeouts, p50Ms: latencies.percentile(50), p99Ms: latencies.percentile(99), maxMs: latencies.max(), lagMaxMs: lag.max / 1e6 } });
});
instance.on('response', (_client: unknown, status: number, _bytes: number, ms: number) => {
  statuses[status] = (statuses[status] ?? 0) + 1;
  latencies.add(ms);
});
