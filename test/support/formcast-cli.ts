import { execFile } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { ensureBuilt, staleWorkspaces } from './start-distributed';

const repoRoot = join(__dirname, '..', '..');
/** The `bin` npm links as node_modules/.bin/formcast. */
export const formcastBin = join(repoRoot, 'packages', 'cli', 'bin', 'formcast');

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs the built `formcast` as a user would: a process of its own, asynchronously (an
 * in-process system under test must keep answering meanwhile). `env` is laid over an
 * environment without any FORMCAST_* or DATA_DIR of the test's own.
 */
export function runFormcast(args: string[], env: Record<string, string> = {}): Promise<CliRun> {
  const base = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !name.startsWith('FORMCAST_') && name !== 'DATA_DIR'),
  );
  return new Promise((resolve) => {
    execFile(process.execPath, [formcastBin, ...args], { env: { ...base, ...env }, timeout: 60_000 }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : -1) : 0;
      resolve({ code, stdout, stderr });
    });
  });
}

/** A port nothing listens on: taken from the system, then closed. */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/**
 * Brings dist/ up to date (the shared build of the distributed mode), then insists that the
 * CLI's build is newer than its sources: the tests run what a user runs.
 */
export function ensureCliBuilt(): void {
  let buildFailure: unknown;
  try {
    ensureBuilt();
  } catch (error) {
    buildFailure = error;
  }
  const cli = join(repoRoot, 'packages', 'cli');
  if (staleWorkspaces().includes(cli)) throw new Error(`packages/cli/dist is older than its sources; the build failed: ${String(buildFailure)}`);
}
