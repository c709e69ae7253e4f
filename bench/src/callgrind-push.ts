import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setUpOrganization } from './api';
import { freePort } from './children';
import { repoRoot } from './config';
import { oneshotBody, pushPath } from './request-shape';
import { adminToken, benchRateLimits } from './systems';

/**
 * Instructions an embedded push costs, counted by callgrind: repeatable on a shared machine,
 * where CPU time is not. `node bench/dist/bench/src/callgrind-push.js <label> [pushes] [NAME=value ...]`
 * starts services/embedded/dist/main.js under `valgrind --tool=callgrind` with S1's settings,
 * sets up an organization (50 devices), sends warm-up pushes (CALLGRIND_WARMUP, 1,500)
 * uncounted, then counts `pushes` (1,000) sent by 10 connections as S1 sends them, and the
 * second after them (the relay, the notifier, the checkpoint of those pushes). NODE_FLAGS
 * replaces node's flags (bin/formcast-node's --max-semi-space-size=4).
 * Compare labels only between runs of similar length: work done per second (timers, the
 * checkpointer) is counted too, so a run slowed by a busy machine counts more a push.
 */
const [label = 'run', pushesText, ...settings] = process.argv.slice(2);
const pushes = Number(pushesText ?? 1000);
const warmup = Number(process.env.CALLGRIND_WARMUP ?? 1500);
const connections = 10;

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'formcast-callgrind-'));
  const port = await freePort();
  const outFile = join(tmpdir(), `callgrind.${label}.out`);
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    NODE_ENV: 'production',
    MALLOC_MMAP_THRESHOLD_: '131072',
    PORT: String(port),
    DATA_DIR: dir,
    ADMIN_TOKEN: adminToken,
    LOG_LEVEL: 'info',
    ...benchRateLimits,
    // Under callgrind the event loop is slow by design: no shedding for it.
    SHED_EVENT_LOOP_DELAY_MS: '0',
  };
  for (const setting of settings) {
    const at = setting.indexOf('=');
    env[setting.slice(0, at)] = setting.slice(at + 1);
  }
  const nodeFlags = (env.NODE_FLAGS ?? '--max-semi-space-size=4').split(' ').filter(Boolean);
  const child = spawn('valgrind', ['--tool=callgrind', '--instr-atstart=no', `--callgrind-out-file=${outFile}`, 'node', ...nodeFlags, join(repoRoot, 'services/embedded/dist/main.js')], {
    env,
    stdio: 'ignore',
  });
  try {
    const origin = `http://127.0.0.1:${port}`;
    await readyUnderCallgrind(`${origin}/readyz`, child);
    const org = await setUpOrganization(origin, adminToken, 'callgrind', 50);
    const body = oneshotBody(org.formNamespace);
    let sent = 0;
    const send = async (count: number) => {
      let left = count;
      await Promise.all(
        Array.from({ length: connections }, async () => {
          while (left-- > 0) {
            const res = await fetch(origin + pushPath(org.deviceIdentifiers, sent++), {
              method: 'POST',
              headers: { authorization: org.authorization, 'content-type': 'application/json' },
              body,
            });
            await res.text();
            if (res.status !== 202) throw new Error(`a push answered ${res.status}`);
          }
        }),
      );
    };
    await send(warmup);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    execFileSync('callgrind_control', ['-i', 'on', String(child.pid)], { stdio: 'ignore' });
    const started = Date.now();
    await send(pushes);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    execFileSync('callgrind_control', ['-i', 'off', String(child.pid)], { stdio: 'ignore' });
    const seconds = (Date.now() - started) / 1000;
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
    const totals = readFileSync(outFile, 'utf8')
      .split('\n')
      .filter((line) => /^(summary|totals):/.test(line))
      .map((line) => Number(line.split(/\s+/)[1]));
    const instructions = Math.max(...totals);
    process.stdout.write(`${label}: ${(instructions / pushes / 1000).toFixed(1)}k instructions a push (${instructions} in ${pushes} pushes, ${seconds.toFixed(1)} s under callgrind); ${outFile}\n`);
  } finally {
    if (child.exitCode === null) child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Like waitForHttp, with callgrind's pace: a minute or more to start. */
async function readyUnderCallgrind(url: string, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + 300_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`valgrind exited (${child.exitCode})`);
    const status = await fetch(url).then((res) => res.status, () => 0);
    if (status === 200) return;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error(`${url} did not answer 200 within 300 s`);
}

main().catch((error: unknown) => {
  process.stderr.write(`${String(error)}\n`);
  process.exit(1);
});
