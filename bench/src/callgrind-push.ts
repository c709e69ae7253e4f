import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pause, startEmbeddedUnder } from './embedded-pushes';

/**
 * Instructions an embedded push costs, counted by callgrind: repeatable on a shared machine,
 * where CPU time is not. `node bench/dist/bench/src/callgrind-push.js <label> [pushes] [NAME=value ...]`
 * starts the embedded process under `valgrind --tool=callgrind` (see startEmbeddedUnder),
 * sends warm-up pushes (CALLGRIND_WARMUP, 1,500) uncounted, then counts `pushes` (1,000)
 * and the second after them (the relay, the notifier, the checkpoint of those pushes).
 * Compare labels only between runs of similar length: work done per second (timers, the
 * checkpointer) is counted too, so a run slowed by a busy machine counts more a push. The
 * kernel's work is not counted: see strace-push.ts.
 */
const [label = 'run', pushesText, ...settings] = process.argv.slice(2);
const pushes = Number(pushesText ?? 1000);
const warmup = Number(process.env.CALLGRIND_WARMUP ?? 1500);

async function main(): Promise<void> {
  const outFile = join(tmpdir(), `callgrind.${label}.out`);
  const system = await startEmbeddedUnder(['valgrind', '--tool=callgrind', '--instr-atstart=no', `--callgrind-out-file=${outFile}`], settings);
  try {
    await system.push(warmup);
    await pause(1000);
    const pid = callgrindPid(outFile);
    execFileSync('callgrind_control', ['-i', 'on', pid], { stdio: 'ignore' });
    const started = Date.now();
    await system.push(pushes);
    await pause(1000);
    execFileSync('callgrind_control', ['-i', 'off', pid], { stdio: 'ignore' });
    const seconds = (Date.now() - started) / 1000;
    await system.stop();
    const totals = readFileSync(outFile, 'utf8')
      .split('\n')
      .filter((line) => /^(summary|totals):/.test(line))
      .map((line) => Number(line.split(/\s+/)[1]));
    const instructions = Math.max(...totals);
    process.stdout.write(`${label}: ${(instructions / pushes / 1000).toFixed(1)}k instructions a push (${instructions} in ${pushes} pushes, ${seconds.toFixed(1)} s under callgrind); ${outFile}\n`);
  } finally {
    await system.stop();
  }
}

/**
 * The pid of the valgrind process writing `outFile`: not the spawned process's own where
 * `valgrind` is a shell wrapper that starts valgrind.bin as its child (Debian's), which
 * callgrind_control then does not find, and the run counted nothing.
 */
function callgrindPid(outFile: string): string {
  // vgdb -l exits 1 after listing.
  const listed = spawnSync('vgdb', ['-l'], { encoding: 'utf8' }).stdout;
  const pid = listed.split('\n').find((line) => line.includes(`--callgrind-out-file=${outFile}`))?.match(/--pid=(\d+)/)?.[1];
  if (!pid) throw new Error(`no callgrind process writes ${outFile} (vgdb -l: ${listed})`);
  return pid;
}

main().catch((error: unknown) => {
  process.stderr.write(`${String(error)}${error instanceof Error && error.cause ? ` (${String(error.cause)})` : ""}\n`);
  process.exit(1);
});
