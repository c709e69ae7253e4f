import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setUpOrganization } from './api';
import { freePort } from './children';
import { repoRoot } from './config';
import { oneshotBody, pushPath } from './request-shape';
import { adminToken, benchRateLimits } from './systems';

/** bin/formcast-node's exported environment and the flags it execs node with (the one place that holds them). */
const launcher = (() => {
  const text = readFileSync(join(repoRoot, 'bin/formcast-node'), 'utf8');
  const env = Object.fromEntries([...text.matchAll(/^export (\w+)=(\S+)$/gm)].map((m) => [m[1]!, m[2]!]));
  const flags = /^exec node (.*) "\$@"$/m.exec(text)?.[1]?.split(' ').filter(Boolean);
  if (!flags) throw new Error('bin/formcast-node: no `exec node … "$@"` line to read the flags from');
  return { env, flags };
})();

/** An embedded process started under a tool (callgrind, strace), with pushes to send it as S1 sends them. */
export interface EmbeddedUnderTool {
  process: ChildProcess;
  /** `count` pushes from 10 connections, devices in turn; throws on any answer but 202. */
  push(count: number): Promise<void>;
  stop(): Promise<void>;
}

/**
 * services/embedded/dist/main.js with S1's settings (`settings`, NAME=value, added), started
 * as `[...wrapper, 'node', ...nodeFlags, main.js]` with bin/formcast-node's environment and
 * flags read from it (NODE_FLAGS replaces its flags), ready and set up: one organization, 50
 * devices, S1's template. Not through the launcher itself: a tool would then watch its shell.
 */
export async function startEmbeddedUnder(wrapper: string[], settings: string[]): Promise<EmbeddedUnderTool> {
  const dir = mkdtempSync(join(tmpdir(), 'formcast-embedded-tool-'));
  const port = await freePort();
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    NODE_ENV: 'production',
    ...launcher.env,
    PORT: String(port),
    DATA_DIR: dir,
    ADMIN_TOKEN: adminToken,
    LOG_LEVEL: 'info',
    ...benchRateLimits,
    // A tool slows the event loop by design: no shedding for it.
    SHED_EVENT_LOOP_DELAY_MS: '0',
  };
  for (const setting of settings) {
    const at = setting.indexOf('=');
    env[setting.slice(0, at)] = setting.slice(at + 1);
  }
  const nodeFlags = env.NODE_FLAGS === undefined ? launcher.flags : env.NODE_FLAGS.split(' ').filter(Boolean);
  const [command, ...args] = [...wrapper, 'node', ...nodeFlags, join(repoRoot, 'services/embedded/dist/main.js')];
  const child = spawn(command!, args, { env, stdio: 'ignore' });
  const stop = async () => {
    if (child.exitCode === null) {
      child.kill('SIGTERM');
      await new Promise((resolve) => child.once('exit', resolve));
    }
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    const origin = `http://127.0.0.1:${port}`;
    await ready(`${origin}/readyz`, child);
    const org = await setUpOrganization(origin, adminToken, 'tool', 50);
    const body = oneshotBody(org.formNamespace);
    let sent = 0;
    const push = async (count: number) => {
      let left = count;
      await Promise.all(
        Array.from({ length: 10 }, async () => {
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
    return { process: child, push, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** Like waitForHttp, at a tool's pace: callgrind takes a minute or more to start node. */
async function ready(url: string, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + 300_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the process under the tool exited (${child.exitCode})`);
    const status = await fetch(url).then((res) => res.status, () => 0);
    if (status === 200) return;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error(`${url} did not answer 200 within 300 s`);
}

export const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
