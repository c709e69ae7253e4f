import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { waitFor } from '@formcast/testing';
import {
  atMarker,
  commandAt,
  extractExamples,
  guidesInReadmeOrder,
  readmeScript,
  statusMarker,
  statusProblem,
  type ReadmeExamples,
} from './support/readme-script';
import { ensureBuilt } from './support/start-distributed';

/**
 * The ```sh blocks of README.md and then of each guide in docs/ (in README's "Where to go
 * next" order), with bash (`set -euo pipefail`) against a fresh server started as `npm start`
 * starts it (embedded mode from dist/, a new DATA_DIR), so no example can drift from what
 * runs. Every HTTP answer curl gets must agree with its command's comments (a refusal they do
 * not show fails the test). The rules: docs/testing.md, "The examples run".
 */

const repoRoot = resolve(__dirname, '..');
const readme = readFileSync(join(repoRoot, 'README.md'), 'utf8');
const guides = guidesInReadmeOrder(readme);
const documents = [
  { file: 'README.md', markdown: readme },
  ...guides.map((file) => ({ file, markdown: readFileSync(join(repoRoot, file), 'utf8') })),
];

interface Server {
  child: ChildProcess;
  output: string[];
  base: string;
  adminTokenFile: string;
}

/** Runs `npm start` (its build is quick: ensureBuilt ran) and reads what it prints when it serves. */
async function startServer(dataDir: string): Promise<Server> {
  const child = spawn('npm', ['start'], {
    cwd: repoRoot,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? tmpdir(),
      PORT: '0',
      DATA_DIR: dataDir,
      // The README's webhook receiver is on 127.0.0.1, as its submissions section says.
      DELIVERY_ALLOW_PRIVATE_NETWORKS: 'true',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  const server: Partial<Server> = { child, output };
  createInterface({ input: child.stdout! }).on('line', (line) => {
    output.push(line);
    const address = /^Formcast is serving (https?:\/\/localhost:\d+)$/.exec(line)?.[1];
    if (address) server.base = address;
    const tokenFile = /^Admin token: in (.+) \(/.exec(line)?.[1];
    if (tokenFile) server.adminTokenFile = tokenFile;
  });
  createInterface({ input: child.stderr! }).on('line', (line) => output.push(`[stderr] ${line}`));
  await waitFor(() => child.exitCode === null && server.base !== undefined && server.adminTokenFile !== undefined, {
    timeoutMs: 60_000,
    description: `the server to print its address and admin token file; it wrote:\n${output.join('\n')}`,
  });
  return server as Server;
}

interface RunResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the script; past `timeoutMs` its process group is killed (a wait that never ends names its block all the same). */
function runBash(script: string, cwd: string, env: Record<string, string>, timeoutMs: number): Promise<RunResult> {
  return new Promise((resolveRun, reject) => {
    const child = spawn('bash', ['-c', script], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    const killer = setTimeout(() => process.kill(-child.pid!, 'SIGKILL'), timeoutMs);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    child.once('error', reject);
    child.once('close', (code) => {
      clearTimeout(killer);
      resolveRun({ code, stdout, stderr });
    });
  });
}

function describeCommand(examples: ReadmeExamples, line: number): string {
  const found = commandAt(examples, line);
  if (!found) return `run line ${line}`;
  return `${found.command.file} line ${found.command.line}, block "${found.block.heading}" (first line: ${found.block.firstLine}): ${found.command.text}`;
}

describe('README and the guides', () => {
  const examples = extractExamples(documents);
  let server: Server | undefined;
  let dataDir: string;
  let workDir: string;

  beforeAll(() => {
    ensureBuilt();
    dataDir = mkdtempSync(join(tmpdir(), 'formcast-readme-data-'));
    workDir = mkdtempSync(join(tmpdir(), 'formcast-readme-run-'));
  }, 300_000);

  afterAll(async () => {
    if (server?.child.exitCode === null) {
      const exited = new Promise((resolveExit) => server!.child.once('exit', resolveExit));
      server.child.kill('SIGTERM');
      await exited;
    }
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(workDir, { recursive: true, force: true });
  }, 60_000);

  it('README is a landing page linking every guide, each of which exists; no file outside the repository is named', () => {
    expect(readme.split('\n').length).toBeLessThanOrEqual(250);
    expect(guides).toEqual([
      'docs/api.md',
      'docs/pushing.md',
      'docs/submissions.md',
      'docs/security-and-limits.md',
      'docs/operating.md',
      'docs/deploying.md',
      'docs/performance.md',
      'docs/testing.md',
    ]);
    for (const guide of guides) expect(existsSync(join(repoRoot, guide))).toBe(true);
    for (const { file, markdown } of documents) {
      expect({ file, outside: markdown.match(/\.\.\/shared\/[^\s`)]*/g) ?? [] }).toEqual({ file, outside: [] });
    }
  });

  it('has runnable blocks in README and in every guide that shows commands, each traced to its file and line', () => {
    const files = new Set(examples.blocks.flatMap((block) => block.commands.map((command) => command.file)));
    for (const file of ['README.md', 'docs/api.md', 'docs/pushing.md', 'docs/submissions.md', 'docs/operating.md']) {
      expect(files).toContain(file);
    }
    for (const block of examples.blocks) {
      for (const command of block.commands) {
        const lines = documents.find((document) => document.file === command.file)!.markdown.split('\n');
        expect(command.text.startsWith(lines[command.line - 1]!)).toBe(true);
      }
    }
  });

  it('npm start prints the address it serves and where the admin token is', async () => {
    server = await startServer(dataDir);
    expect(server.base).toMatch(/^http:\/\/localhost:\d+$/);
    expect(server.adminTokenFile).toBe(join(dataDir, 'admin-token'));
    expect(readFileSync(server.adminTokenFile, 'utf8').trim()).toMatch(/^\S{16,}$/);
    expect((await fetch(`${server.base}/healthz`)).status).toBe(200);
  }, 90_000);

  it('runs every shell block top to bottom, each answer as its comments say', async () => {
    if (!server) throw new Error('the server did not start (see the test before)');
    // The examples run where `npm start` runs: the repository's node_modules (exceljs,
    // standardwebhooks, npx formcast), examples/ (receiver.js) and data/ (the admin token).
    symlinkSync(join(repoRoot, 'node_modules'), join(workDir, 'node_modules'));
    symlinkSync(join(repoRoot, 'examples'), join(workDir, 'examples'));
    symlinkSync(dataDir, join(workDir, 'data'));

    const result = await runBash(readmeScript(examples), workDir, {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? workDir,
      BASE: server.base,
      ADMIN: readFileSync(server.adminTokenFile, 'utf8').trim(),
      FORMCAST_URL: server.base,
    }, 160_000);

    const markers = result.stderr.split('\n');
    const lastLine = Number(markers.filter((line) => line.startsWith(atMarker)).at(-1)?.slice(atMarker.length).trim() ?? 0);
    const rest = (text: string) => text.split('\n').filter((line) => !line.startsWith('::')).slice(-30).join('\n');
    if (result.code !== 0) {
      throw new Error(
        `The examples stopped (exit ${result.code}) at ${describeCommand(examples, lastLine)}\n` +
          `stderr:\n${rest(result.stderr)}\nstdout:\n${result.stdout.split('\n').slice(-15).join('\n')}\n` +
          `server:\n${server.output.slice(-10).join('\n')}`,
      );
    }

    const statuses = markers
      .filter((line) => line.startsWith(statusMarker))
      .map((line) => {
        const [readmeLine, code, method, url] = line.slice(statusMarker.length).trim().split(' ');
        return { readmeLine: Number(readmeLine), status: Number(code), method, url };
      });
    const problems = statuses.flatMap(({ readmeLine, status, method, url }) => {
      const found = commandAt(examples, readmeLine);
      const problem = found ? statusProblem(found.command, status) : `no command at run line ${readmeLine}`;
      return problem ? [`${method} ${url} ${problem}\n  in ${describeCommand(examples, readmeLine)}`] : [];
    });
    expect(problems).toEqual([]);
    // Every command ran (the last one reached) and curl reported each answer.
    expect(lastLine).toBe(examples.blocks.at(-1)!.commands.at(-1)!.firstLine);
    expect(statuses.length).toBeGreaterThan(100);
  }, 180_000);

  it('npm start stops like a service: a SIGTERM to the npm process ends the server, none left serving', async () => {
    const { child, base } = server!;
    const exited = new Promise<number | null>((resolveExit) => child.once('exit', (code) => resolveExit(code)));
    child.kill('SIGTERM');
    expect(await exited).not.toBeNull();
    // The server's own process (npm's child) closed its port: nothing orphaned answers.
    await waitFor(async () => (await fetch(`${base}/healthz`).then(() => 'up', () => 'down')) === 'down', {
      timeoutMs: 15_000,
      description: 'the server behind npm start to stop after SIGTERM',
    });
  }, 30_000);
});
