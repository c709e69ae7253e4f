import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pause, startEmbeddedUnder } from './embedded-pushes';

/**
 * The syscalls an embedded push makes, every thread, counted by `strace -c -f`: what
 * callgrind does not see (SQLite's WAL writes and locks, the sockets). `node bench/dist/bench/src/strace-push.js <label> [pushes] [NAME=value ...]`
 * starts the embedded process (see startEmbeddedUnder), sends 2,000 warm-up pushes, then
 * attaches strace for `pushes` (2,000) and half a second after them.
 */
const [label = 'run', pushesText, ...settings] = process.argv.slice(2);
const pushes = Number(pushesText ?? 2000);

async function main(): Promise<void> {
  const system = await startEmbeddedUnder([], settings);
  try {
    await system.push(2000);
    const outFile = join(tmpdir(), `strace.${label}.txt`);
    const strace = spawn('strace', ['-c', '-f', '-o', outFile, '-p', String(system.process.pid)], { stdio: 'ignore' });
    await pause(1000);
    await system.push(pushes);
    await pause(500);
    strace.kill('SIGINT');
    await new Promise((resolve) => strace.once('exit', resolve));
    const rows = readFileSync(outFile, 'utf8')
      .split('\n')
      .filter((line) => /^\s*[\d.]+\s+[\d.]+/.test(line))
      .map((line) => line.trim().split(/\s+/))
      .map((fields) => ({ name: fields[fields.length - 1]!, calls: Number(fields[3]) }));
    const total = rows.find((row) => row.name === 'total')?.calls ?? 0;
    const top = rows
      .filter((row) => row.name !== 'total')
      .sort((a, b) => b.calls - a.calls)
      .slice(0, 10)
      .map((row) => `${row.name} ${(row.calls / pushes).toFixed(2)}`);
    process.stdout.write(`${label}: ${(total / pushes).toFixed(2)} syscalls a push (${top.join(', ')}); ${outFile}\n`);
  } finally {
    await system.stop();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${String(error)}\n`);
  process.exit(1);
});
