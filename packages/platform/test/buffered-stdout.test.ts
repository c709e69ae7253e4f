import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { ensureBuilt } from '../../../test/support/start-distributed';

const platform = JSON.stringify(join(__dirname, '../dist/index.js'));

interface Run {
  code: number | null;
  lines: Record<string, unknown>[];
}

/**
 * Runs `body` in a node process whose logger is `createLogger({ buffered: true })` (as `log`)
 * after `Lifecycle.installProcessHandlers()`; `then(child, stdout)` may act on it while it runs.
 */
function run(body: string, then?: (child: ReturnType<typeof spawn>, stdout: () => string) => Promise<void>): Promise<Run> {
  const script = `
    const { createLogger, Lifecycle } = require(${platform});
    const log = createLogger({ buffered: true, name: 'drill' });
    new Lifecycle(log).installProcessHandlers({ graceMs: 5000 });
    ${body}
  `;
  const child = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.stderr!.once('data', () => void then?.(child, () => stdout).catch(reject));
    child.once('close', (code) => resolve({ code, lines: stdout.split('\n').filter(Boolean).map((line) => JSON.parse(line) as Record<string, unknown>) }));
  });
}

const numbered = (lines: Record<string, unknown>[]) => lines.filter((line) => line.msg === 'line').map((line) => line.n);
const oneTo = (n: number) => Array.from({ length: n }, (_, i) => i);

describe('the buffered stdout of a process logger', () => {
  beforeAll(() => ensureBuilt(), 300_000);

  it('writes every line, in order, when the process ends by running out of work', async () => {
    const { code, lines } = await run(`for (let n = 0; n < 5000; n++) log.info({ n }, 'line');`);
    expect(code).toBe(0);
    expect(numbered(lines)).toEqual(oneTo(5000));
  });

  it('writes every line on process.exit right after them (a failed start, a stop past its grace)', async () => {
    const { code, lines } = await run(`for (let n = 0; n < 5000; n++) log.info({ n }, 'line'); process.exit(3);`);
    expect(code).toBe(3);
    expect(numbered(lines)).toEqual(oneTo(5000));
  });

  it('writes every line, then the stop, on SIGTERM', async () => {
    const { code, lines } = await run(
      `for (let n = 0; n < 5000; n++) log.info({ n }, 'line'); setInterval(() => {}, 1000); process.stderr.write('logged');`,
      async (child) => void child.kill('SIGTERM'),
    );
    expect(code).toBe(0);
    expect(numbered(lines)).toEqual(oneTo(5000));
    expect(lines.at(-1)).toMatchObject({ msg: 'stopping', signal: 'SIGTERM' });
  });

  it('writes a lone line of a quiet process soon, while it keeps running', async () => {
    let seenRunning = false;
    const { lines } = await run(`log.info({ n: 0 }, 'line'); setInterval(() => {}, 1000); process.stderr.write('logged');`, async (child, stdout) => {
      const deadline = Date.now() + 2000;
      while (!stdout().includes('"msg":"line"') && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
      seenRunning = child.exitCode === null && stdout().includes('"msg":"line"');
      child.kill('SIGTERM');
    });
    expect(seenRunning).toBe(true);
    expect(numbered(lines)).toEqual([0]);
  });

  it('writes an uncaught exception and every line before it', async () => {
    const { code, lines } = await run(`for (let n = 0; n < 5000; n++) log.info({ n }, 'line'); setTimeout(() => { throw new Error('boom'); }, 10);`);
    expect(code).toBe(1);
    expect(numbered(lines)).toEqual(oneTo(5000));
    expect(lines.some((line) => line.msg === 'uncaught exception')).toBe(true);
  });
});
