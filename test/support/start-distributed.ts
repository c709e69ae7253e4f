import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { Redis } from 'ioredis';
import pino from 'pino';
import { AmqpBus, type Bus } from '@formcast/bus';
import { startDeliveryService } from '@formcast/delivery';
import { startDirectoryService } from '@formcast/directory';
import { serviceStarters } from '@formcast/embedded';
import { startNotifierService } from '@formcast/notifier';
import { parseSettings, type Logger, type RunningService, type ServiceStarter } from '@formcast/platform';
import { startPushService } from '@formcast/push';
import { startResourcesService } from '@formcast/resources';
import { deleteTestTopology, uniqueName, waitFor } from '@formcast/testing';
import { ApiClient } from './api-client';

/**
 * The distributed topology for end-to-end tests: the gateway and each service as a
 * separate node process started from its `dist/main.js` (what `npm run start:<service>`
 * runs), over the RabbitMQ and Redis of this machine, each with its own SQLite files
 * (MongoDB instead when MONGO_URL is set), under a topology prefix and a Redis key prefix
 * of the run's own, removed by stop().
 */

const repoRoot = resolve(__dirname, '../..');
export const distributedAmqpUrl = process.env.AMQP_URL ?? 'amqp://guest:guest@127.0.0.1:5672';
/**
 * Suites share two cores with other suites and processes, and jest's own work stalls the
 * loop now and then: shedding on event-loop delay would answer a random 503. Off unless a
 * suite sets SHED_EVENT_LOOP_DELAY_MS (its unit test: services/gateway/test/http/load-shedding.test.ts).
 */
export const testShedding = { SHED_EVENT_LOOP_DELAY_MS: '0' };
const defaultRedisUrl = process.env.REDIS_URL || 'redis://127.0.0.1:6379';

/** The process that runs each starter of the embedded list, by folder under services/. */
const processOfStarter = new Map<ServiceStarter<Bus>, string>([
  [startDirectoryService, 'directory'],
  [startResourcesService, 'resources'],
  [startPushService, 'push'],
  [startNotifierService, 'notifier'],
  [startDeliveryService, 'delivery'],
]);

if (serviceStarters.some((start) => !processOfStarter.has(start))) {
  throw new Error('A service of the embedded list has no process here: add its starter and folder to processOfStarter');
}

/** The service process that runs `starter` alone, or undefined for a starter made by a test. */
export function processNameOf(starter: ServiceStarter<Bus>): string | undefined {
  return processOfStarter.get(starter);
}

export interface DistributedOptions {
  /** Services to run as processes, by folder name (`push`, …); they start side by side, the gateway with them. */
  services: string[];
  /** Settings for every process (the suite's: BODY_LIMIT_BYTES, …). */
  env?: Record<string, string>;
  /** Started in this process, each as its own AMQP peer under the same prefix (a notifier with an FCM stand-in, …). */
  peers?: ServiceStarter<Bus>[];
  /** Receives every line the processes log, as they wrote it. */
  logger?: Logger;
  adminToken: string;
  /** The broker (default: AMQP_URL, else the local RabbitMQ). */
  amqpUrl?: string;
  /**
   * Processes per service (default 1): replicas share the service's command queue and its
   * SQLite files (one database, as replicas share one MongoDB database).
   */
  replicas?: Record<string, number>;
}

const graceMs = 10_000;
const startTimeoutMs = 60_000;
const tailLines = 200;
const live = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of live) child.kill('SIGKILL');
});

/** One service (or the gateway) as a child process, with the port it logged and the tail of its output. */
export class ServiceProcess {
  private child: ChildProcess | null = null;
  private exited: Promise<void> = Promise.resolve();
  private readonly tail: string[] = [];
  /** Health port (services) or HTTP port (gateway), as the process logged it. */
  port: number | null = null;
  /** How each run of the process ended, in order: `0`, `1`, `SIGKILL`, … */
  readonly exits: Array<number | string> = [];
  /** Set when it exited without being told to (a crash), or did not exit 0 on SIGTERM. */
  failure: string | null = null;
  private expectingExit = false;

  constructor(
    /** `push`, or `push-2` for a second replica. */
    readonly name: string,
    /** The folder under services/ whose dist/main.js it runs. */
    readonly service: string,
    private readonly env: Record<string, string>,
    private readonly forward: ((line: string) => void) | undefined,
  ) {}

  get running(): boolean {
    return this.child !== null;
  }

  /** The DATA_DIR it runs with (its SQLite files), the same for each run. */
  get dataDir(): string {
    return this.env.DATA_DIR!;
  }

  get pid(): number | undefined {
    return this.child?.pid;
  }

  /** Starts the process; resolves once its `/readyz` answers 200. */
  async start(): Promise<void> {
    if (this.child) throw new Error(`${this.name} is running already`);
    this.port = null;
    this.expectingExit = false;
    const child = spawn(process.execPath, ['--enable-source-maps', join('services', this.service, 'dist', 'main.js')], {
      cwd: repoRoot,
      env: this.env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child = child;
    live.add(child);
    this.exited = new Promise((resolveExit) => {
      child.once('exit', (code, signal) => {
        live.delete(child);
        this.exits.push(signal ?? code ?? 'unknown');
        if (this.child === child) this.child = null;
        if (!this.expectingExit) {
          this.failure ??= `${this.name} exited unexpectedly (${signal ?? code})`;
          this.remember(`[harness] ${this.failure}`);
        }
        resolveExit();
      });
    });
    createInterface({ input: child.stdout! }).on('line', (line) => this.read(line));
    createInterface({ input: child.stderr! }).on('line', (line) => this.remember(`[stderr] ${line}`));
    try {
      await waitFor(
        async () => {
          if (this.child !== child) throw new Error('it exited');
          if (this.port === null) return false;
          return (await fetch(`http://127.0.0.1:${this.port}/readyz`)).status === 200;
        },
        { timeoutMs: startTimeoutMs, intervalMs: 50, description: `${this.name} to be ready` },
      );
    } catch (error) {
      await this.signal('SIGKILL');
      throw new Error(`${(error as Error).message}\n${this.name}'s last output:\n${this.output()}`);
    }
  }

  /** Sends `signal` and waits for the process to exit (SIGKILL after the grace period). */
  async signal(signal: NodeJS.Signals): Promise<void> {
    const child = this.child;
    if (!child) return;
    this.expectingExit = true;
    child.kill(signal);
    const killer = setTimeout(() => child.kill('SIGKILL'), graceMs + 5000);
    await this.exited;
    clearTimeout(killer);
    const exit = this.exits.at(-1);
    if (signal === 'SIGTERM' && exit !== 0) this.failure ??= `${this.name} exited ${exit} on SIGTERM, not 0`;
  }

  /** The last lines it wrote, for a failure message. */
  output(): string {
    return this.tail.join('\n');
  }

  private read(line: string): void {
    this.remember(line);
    this.forward?.(line);
    if (this.port !== null) return;
    try {
      const entry = JSON.parse(line) as { healthPort?: unknown; port?: unknown; msg?: unknown };
      if (typeof entry.healthPort === 'number') this.port = entry.healthPort;
      else if (this.service === 'gateway' && typeof entry.port === 'number') this.port = entry.port;
    } catch {
      // not a log line of ours
    }
  }

  private remember(line: string): void {
    this.tail.push(line);
    if (this.tail.length > tailLines) this.tail.shift();
  }
}

export interface DistributedSystem {
  api: ApiClient;
  adminToken: string;
  /** The AMQP topology prefix of this system (every exchange and queue starts with it). */
  prefix: string;
  /** Every process by name: `gateway` and each service. */
  processes: Map<string, ServiceProcess>;
  /**
   * Starts one more replica of `service` (`push-2`, `push-3`…), on the same settings and files
   * as the others; it is stopped with the rest. Resolves once it is ready.
   */
  startReplica(service: string): Promise<ServiceProcess>;
  /**
   * Stops everything: SIGTERM (graceful), then removes the topology, Redis keys and files.
   * Rejects, with their last output, when a process crashed during the run or did not exit
   * 0 on SIGTERM.
   */
  stop(): Promise<void>;
}

/** Starts the services, the gateway and any in-process peers side by side; resolves when all are ready. */
export async function startDistributed(options: DistributedOptions): Promise<DistributedSystem> {
  if (buildProblem) throw buildProblem;
  ensureBuilt();
  const prefix = uniqueName('e2e_dist');
  const redisKeyPrefix = `${prefix}:`;
  const root = mkdtempSync(join(tmpdir(), 'formcast-dist-'));
  const forward = options.logger ? lineWriterOf(options.logger) : undefined;
  const suiteEnv = options.env ?? {};
  const runSecretsKey = randomBytes(32).toString('base64');
  const amqpUrl = options.amqpUrl ?? distributedAmqpUrl;
  const level = ['trace', 'debug', 'info'].includes(suiteEnv.LOG_LEVEL ?? '') ? suiteEnv.LOG_LEVEL! : 'info';
  const envFor = (name: string): Record<string, string> => ({
    PATH: process.env.PATH ?? '',
    // The suite's SQLite binding (the drills run with each).
    ...(process.env.SQLITE_BINDING ? { SQLITE_BINDING: process.env.SQLITE_BINDING } : {}),
    // On MongoDB every delivery replica must be given the same sealing key (on SQLite it is generated into DATA_DIR).
    ...(process.env.MONGO_URL ? { MONGO_URL: process.env.MONGO_URL, DELIVERY_SECRETS_KEY: runSecretsKey } : {}),
    ...testShedding,
    ...suiteEnv,
    AMQP_URL: amqpUrl,
    AMQP_PREFIX: prefix,
    // ioredis reads options from the URL's query: every badge key gets the run's prefix.
    REDIS_URL: withKeyPrefix(suiteEnv.REDIS_URL ?? defaultRedisUrl, redisKeyPrefix),
    DATA_DIR: join(root, name),
    PORT: '0',
    HEALTH_PORT: '0',
    // The gateway's /metrics port: a free one, unless the suite names one (suites run side by side).
    METRICS_PORT: suiteEnv.METRICS_PORT ?? '0',
    ADMIN_TOKEN: options.adminToken,
    LOG_LEVEL: level,
    SHUTDOWN_GRACE_MS: String(graceMs),
  });
  const processes = new Map<string, ServiceProcess>();
  for (const service of [...options.services, 'gateway']) {
    for (let replica = 1; replica <= (options.replicas?.[service] ?? 1); replica += 1) {
      const name = replica === 1 ? service : `${service}-${replica}`;
      processes.set(name, new ServiceProcess(name, service, envFor(service), forward));
    }
  }

  const peers: Array<{ bus: AmqpBus; service: RunningService }> = [];
  const stop = async () => {
    await processes.get('gateway')!.signal('SIGTERM');
    await Promise.all(peers.map(async ({ bus, service }) => {
      await bus.close();
      await service.stop();
    }));
    await Promise.all([...processes.values()].map((p) => p.signal('SIGTERM')));
    await deleteTestTopology(amqpUrl, prefix, [...options.services, 'gateway', ...peers.map((p) => p.service.name)]);
    await deleteRedisKeys(suiteEnv.REDIS_URL ?? defaultRedisUrl, redisKeyPrefix);
    rmSync(root, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
    const failed = [...processes.values()].filter((p) => p.failure !== null);
    if (failed.length > 0) throw new Error(failed.map((p) => `${p.failure}; its last output:\n${p.output()}`).join('\n\n'));
  };

  const startPeers = async () => {
    const settings = parseSettings({ ...suiteEnv, DATA_DIR: join(root, 'in-process-peers'), LOG_LEVEL: 'silent' });
    const peerLogger = options.logger ?? pino({ level: 'silent' });
    for (const start of options.peers ?? []) {
      const bus = new AmqpBus({ url: amqpUrl, logger: peerLogger, prefix });
      peers.push({ bus, service: await start({ bus, settings, logger: peerLogger }) });
      await bus.start();
    }
  };
  // Every process and peer at once, the gateway too: it needs none of them to start, and no
  // request is sent before all are ready. Settled, not raced: stop() must find each one
  // started or failed, never still starting.
  const started = await Promise.allSettled([...[...processes.values()].map((p) => p.start()), startPeers()]);
  const failed = started.find((result): result is PromiseRejectedResult => result.status === 'rejected');
  if (failed) {
    await stop().catch(() => undefined);
    throw failed.reason;
  }
  const startReplica = async (service: string): Promise<ServiceProcess> => {
    if (!processes.has(service)) throw new Error(`${service} is not a service of this system`);
    let replica = 2;
    while (processes.has(`${service}-${replica}`)) replica += 1;
    const added = new ServiceProcess(`${service}-${replica}`, service, envFor(service), forward);
    processes.set(added.name, added);
    await added.start();
    return added;
  };
  return {
    api: new ApiClient(`http://127.0.0.1:${processes.get('gateway')!.port}`),
    adminToken: options.adminToken,
    prefix,
    processes,
    startReplica,
    stop,
  };
}

function withKeyPrefix(url: string, keyPrefix: string): string {
  const parsed = new URL(url);
  if (!parsed.searchParams.has('keyPrefix')) parsed.searchParams.set('keyPrefix', keyPrefix);
  return parsed.toString();
}

async function deleteRedisKeys(url: string, keyPrefix: string): Promise<void> {
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1 });
  try {
    await redis.connect();
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${keyPrefix}*`, 'COUNT', 500);
      if (keys.length > 0) await redis.del(...keys);
      cursor = next;
    } while (cursor !== '0');
  } catch {
    // Redis gone: nothing to clean up there.
  } finally {
    redis.disconnect();
  }
}

/** Writes a process's raw line to the destination of `logger`, as if it had logged it. */
function lineWriterOf(logger: Logger): (line: string) => void {
  const stream = (logger as unknown as Record<symbol, { write?: (chunk: string) => void } | undefined>)[pino.symbols.streamSym];
  if (stream?.write) return (line) => stream.write!(`${line}\n`);
  return (line) => logger.info({ line }, 'process output');
}

// ---------------------------------------------------------------------------------------
// Build: processes run from dist/, so it must be at least as new as the sources.

const workspaces = ['packages', 'services'].flatMap((dir) =>
  readdirSync(join(repoRoot, dir))
    .map((name) => join(repoRoot, dir, name))
    .filter((path) => existsSync(join(path, 'tsconfig.json'))),
);

function newestMtime(path: string): number {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return readdirSync(path).reduce((newest, entry) => Math.max(newest, newestMtime(join(path, entry))), stat.mtimeMs);
}

/** Workspaces whose sources or config changed after their last build (or never built). */
export function staleWorkspaces(): string[] {
  const shared = newestMtime(join(repoRoot, 'tsconfig.base.json'));
  return workspaces.filter((workspace) => {
    const buildInfo = join(workspace, 'tsconfig.tsbuildinfo');
    if (!existsSync(buildInfo) || !existsSync(join(workspace, 'dist'))) return true;
    const built = statSync(buildInfo).mtimeMs;
    const sources = Math.max(shared, newestMtime(join(workspace, 'src')), newestMtime(join(workspace, 'tsconfig.json')));
    return sources > built;
  });
}

const lockDir = join(tmpdir(), `formcast-build-${createHash('sha256').update(repoRoot).digest('hex').slice(0, 12)}.lock`);

/**
 * Runs `tsc -b` when dist/ is older than the sources. Jest workers share the tree, so one
 * builds while the others wait on a lock directory; after it, they find dist/ fresh.
 */
export function ensureBuilt(): void {
  if (staleWorkspaces().length === 0) return;
  const deadline = Date.now() + 5 * 60_000;
  while (!tryLock()) {
    if (Date.now() > deadline) throw new Error(`Waited 5 minutes for the build lock ${lockDir}`);
    // Synchronous on purpose (see buildProblem below): wait 200 ms for the holder, then look again.
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 200);
  }
  try {
    if (staleWorkspaces().length === 0) return;
    const result = spawnSync(process.execPath, [require.resolve('typescript/bin/tsc'), '-b'], { cwd: repoRoot, encoding: 'utf8' });
    if (result.status !== 0) throw new Error(`The distributed tests need a build; \`tsc -b\` failed:\n${result.stdout}${result.stderr}`);
  } finally {
    rmSync(lockDir, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
  }
}

function tryLock(): boolean {
  try {
    mkdirSync(lockDir);
    return true;
  } catch {
    // Held by another worker; a holder that died long ago leaves a stale lock.
    const held = statSync(lockDir, { throwIfNoEntry: false });
    if (held && Date.now() - held.mtimeMs > 3 * 60_000) rmSync(lockDir, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
    return false;
  }
}

/** E2E_MODES, when set: the only modes suites run (comma-separated, e.g. `embedded`: .ci/run's fast part). */
export const onlyModes = process.env.E2E_MODES?.split(',').map((mode) => mode.trim()).filter(Boolean);

/**
 * Whether suites run the distributed mode too (E2E_DISTRIBUTED=0, or E2E_MODES without it, leaves it out). When they
 * do, dist/ is brought up to date while the test file loads, outside any hook's timeout;
 * a failed build fails only the distributed runs (startDistributed throws it).
 */
export const distributedModeEnabled = process.env.E2E_DISTRIBUTED !== '0' && (!onlyModes || onlyModes.includes('distributed'));
let buildProblem: Error | null = null;
if (distributedModeEnabled) {
  try {
    ensureBuilt();
  } catch (error) {
    buildProblem = error as Error;
  }
}
