import { fork, spawn, type ChildProcess } from 'node:child_process';
import { closeSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { config, logsDir, profilesDir, repoRoot } from './config';

/** A process under test: its pid for /proc, its log file, and how to stop it. */
export interface Child {
  name: string;
  pid: number;
  process: ChildProcess;
  logFile: string;
  /** Resolves with the first IPC message satisfying `match`. */
  message<T = any>(match: (message: any) => boolean, timeoutMs?: number): Promise<T>;
  send(message: unknown): void;
  stop(): Promise<void>;
}

const running = new Set<Child>();

/**
 * Starts `node <script>` (a compiled file) with an IPC channel, stdout and stderr into
 * bench/results/logs/<name>.log. A Formcast process (`formcast: true`) starts through
 * bin/formcast-node, as `npm start` and the image start it, with its flags and environment.
 * With BENCH_CPU_PROF=1 it writes a CPU profile on exit.
 */
export function startNode(name: string, script: string, env: Record<string, string>, options: { formcast?: boolean } = {}): Child {
  mkdirSync(logsDir, { recursive: true });
  const logFile = join(logsDir, `${name}.log`);
  const fd = openSync(logFile, 'w');
  // No --cpu-prof-name: every thread (the SQLite checkpointer is a worker) writes a profile,
  // and one name would let the last thread's overwrite the main thread's.
  const threadProfilesDir = join(profilesDir, name);
  const execArgv = config.cpuProfile ? ['--cpu-prof', `--cpu-prof-dir=${threadProfilesDir}`] : [];
  if (config.cpuProfile) {
    rmSync(threadProfilesDir, { recursive: true, force: true });
    mkdirSync(threadProfilesDir, { recursive: true });
  }
  const spawnOptions = {
    cwd: repoRoot,
    env: { PATH: process.env.PATH ?? '', NODE_ENV: 'production', ...(config.sqliteBinding ? { SQLITE_BINDING: config.sqliteBinding } : {}), ...env },
    stdio: ['ignore', fd, fd, 'ipc'] as Array<'ignore' | 'ipc' | number>,
  };
  // The launcher execs node in its own place, so the pid and the IPC channel are node's.
  const child = options.formcast
    ? spawn(join(repoRoot, 'bin/formcast-node'), [...execArgv, script], spawnOptions)
    : fork(script, [], { ...spawnOptions, execArgv });
  closeSync(fd);
  const exited = new Promise<void>((resolve) =>
    child.once('exit', () => {
      if (config.cpuProfile) nameThreadProfiles(name, threadProfilesDir);
      resolve();
    }),
  );
  const handle: Child = {
    name,
    pid: child.pid!,
    process: child,
    logFile,
    message: (match, timeoutMs = 30_000) =>
      new Promise((resolve, reject) => {
        const timer = setTimeout(() => done(new Error(`${name}: no expected message within ${timeoutMs} ms (see ${logFile})`)), timeoutMs);
        const onMessage = (message: unknown) => {
          if (match(message)) done(undefined, message);
        };
        const onExit = (code: number | null) => done(new Error(`${name} exited (${code}) before it was ready; see ${logFile}`));
        const done = (error?: Error, message?: unknown) => {
          clearTimeout(timer);
          child.off('message', onMessage);
          child.off('exit', onExit);
          if (error) reject(error);
          else resolve(message as any);
        };
        child.on('message', onMessage);
        child.once('exit', onExit);
      }),
    send: (message) => child.send(message as any),
    stop: async () => {
      running.delete(handle);
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
        await exited;
        clearTimeout(timer);
      }
    },
  };
  running.add(handle);
  return handle;
}

/**
 * Node names a profile CPU.<date>.<time>.<pid>.<thread id>.<seq>.cpuprofile: the main
 * thread's (thread id 0) becomes profiles/<name>.cpuprofile, a worker's
 * profiles/<name>.thread-<id>.cpuprofile.
 */
function nameThreadProfiles(name: string, threadProfilesDir: string): void {
  for (const file of readdirSync(threadProfilesDir)) {
    const threadId = /^CPU\.\d+\.\d+\.\d+\.(\d+)\.\d+\.cpuprofile$/.exec(file)?.[1];
    if (threadId === undefined) continue;
    const target = threadId === '0' ? `${name}.cpuprofile` : `${name}.thread-${threadId}.cpuprofile`;
    renameSync(join(threadProfilesDir, file), join(profilesDir, target));
  }
  rmSync(threadProfilesDir, { recursive: true, force: true });
}

/** Stops every child still running (on the way out, also after a failure). */
export async function stopAll(): Promise<void> {
  await Promise.all([...running].map((child) => child.stop()));
}

/** A port free on 127.0.0.1 right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** Polls `url` until it answers 200. */
export async function waitForHttp(url: string, child: Child, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.process.exitCode !== null) throw new Error(`${child.name} exited (${child.process.exitCode}); see ${child.logFile}`);
    try {
      const res = await fetch(url);
      if (res.status === 200) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`${url} did not answer 200 within ${timeoutMs} ms; see ${child.logFile}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

// ---- memory, from /proc ----------------------------------------------------------------

function statusField(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status);
  if (!match) throw new Error(`no ${field} for pid ${pid}`);
  return Number(match[1]) * 1024;
}

/** Resident set size now, in bytes. */
export function rssBytes(pid: number): number {
  return statusField(pid, 'VmRSS');
}

/** Peak resident set size since the last `resetPeakRss` (or since start), in bytes. */
export function peakRssBytes(pid: number): number {
  return statusField(pid, 'VmHWM');
}

/** Sets the process's peak RSS back to its current RSS (Linux ≥ 4.0: /proc/<pid>/clear_refs, "5"). */
export function resetPeakRss(pid: number): void {
  writeFileSync(`/proc/${pid}/clear_refs`, '5');
}

// ---- CPU, from /proc, to tell whether the machine was busy with something else ----------

/** CPU time (user + system, with waited-for children) of a process so far, in clock ticks (1/100 s). */
export function processJiffies(pid: number): number {
  return jiffiesIn(`/proc/${pid}/stat`);
}

/**
 * CPU time of a process's main thread alone (the thread whose id is the pid): its event
 * loop, apart from worker threads (the SQLite checkpointer), libuv's pool and V8's helpers.
 */
export function mainThreadJiffies(pid: number): number {
  return jiffiesIn(`/proc/${pid}/task/${pid}/stat`);
}

function jiffiesIn(statFile: string): number {
  try {
    const stat = readFileSync(statFile, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // utime, stime, cutime, cstime are fields 14-17 (1-based); here offset by the two before ')'.
    return Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]);
  } catch {
    return 0;
  }
}

function machineJiffies(): { busy: number; total: number } {
  const line = readFileSync('/proc/stat', 'utf8').split('\n')[0]!;
  const values = line.trim().split(/\s+/).slice(1).map(Number);
  const idle = (values[3] ?? 0) + (values[4] ?? 0);
  const total = values.reduce((sum, v) => sum + v, 0);
  return { busy: total - idle, total };
}

/** Pids of the broker and Redis: part of the system under test, not foreign load. */
export function infrastructurePids(): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const comm = readFileSync(`/proc/${entry}/comm`, 'utf8').trim();
      if (comm === 'beam.smp' || comm.startsWith('redis-server') || comm === 'epmd' || comm === 'erl_child_setup') pids.push(Number(entry));
    } catch {
      // gone
    }
  }
  return pids;
}

/**
 * Measures, over a phase, the share of the machine's CPU used by processes other than the
 * bench, its children, RabbitMQ and Redis: "was something else running?".
 */
export class ForeignCpu {
  private totalBusy = 0;
  private total = 0;
  private ours = 0;
  private phase: { machine: { busy: number; total: number }; ours: number; pids: number[] } | null = null;

  begin(pids: number[]): void {
    this.phase = { machine: machineJiffies(), ours: pids.reduce((s, p) => s + processJiffies(p), 0), pids };
  }

  end(): void {
    if (!this.phase) return;
    const machine = machineJiffies();
    const ours = this.phase.pids.reduce((s, p) => s + processJiffies(p), 0);
    this.totalBusy += machine.busy - this.phase.machine.busy;
    this.total += machine.total - this.phase.machine.total;
    this.ours += ours - this.phase.ours;
    this.phase = null;
  }

  /** Foreign CPU as a share of the whole machine (0..1) over every measured phase. */
  share(): number {
    if (this.total === 0) return 0;
    return Math.max(0, (this.totalBusy - this.ours) / this.total);
  }
}
