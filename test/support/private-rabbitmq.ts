import { execFile, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { waitFor } from '@formcast/testing';

const run = promisify(execFile);

/**
 * A RabbitMQ node of a test's own (its own node name, ports and data directory), from the
 * machine's rabbitmq-server, so a drill can restart the broker without disturbing the shared
 * one every other suite is using. Durable queues and exchanges survive its restarts.
 */
export class PrivateRabbitmq {
  private constructor(
    private readonly node: string,
    private readonly dir: string,
    private readonly env: NodeJS.ProcessEnv,
    readonly port: number,
  ) {}

  /** Why it cannot run here, or null when rabbitmq-server and rabbitmqctl are installed. */
  static unavailableReason(): string | null {
    const found = spawnSync('sh', ['-c', 'command -v rabbitmq-server && command -v rabbitmqctl'], { stdio: 'ignore' }).status === 0;
    return found ? null : 'needs rabbitmq-server and rabbitmqctl on PATH (a private node is started and restarted)';
  }

  static async start(): Promise<PrivateRabbitmq> {
    const [port, distPort] = [await freePort(), await freePort()];
    const node = `formcast-drill-${randomBytes(4).toString('hex')}@localhost`;
    const dir = mkdtempSync(join(tmpdir(), 'formcast-rabbitmq-'));
    // rabbitmq-server drops to the rabbitmq user when started by root: it must write here.
    chmodSync(dir, 0o777);
    writeFileSync(join(dir, 'rabbitmq.conf'), `listeners.tcp.local = 127.0.0.1:${port}\nloopback_users = none\n`, { mode: 0o666 });
    writeFileSync(join(dir, 'enabled_plugins'), '[].\n', { mode: 0o666 });
    const env = {
      ...process.env,
      RABBITMQ_NODENAME: node,
      RABBITMQ_CONFIG_FILE: join(dir, 'rabbitmq.conf'),
      RABBITMQ_ENABLED_PLUGINS_FILE: join(dir, 'enabled_plugins'),
      RABBITMQ_MNESIA_BASE: join(dir, 'mnesia'),
      RABBITMQ_LOG_BASE: join(dir, 'log'),
      RABBITMQ_DIST_PORT: String(distPort),
    };
    const broker = new PrivateRabbitmq(node, dir, env, port);
    stopOnExit.add(broker);
    try {
      await broker.bootNode();
    } catch (error) {
      broker.destroy();
      throw error;
    }
    return broker;
  }

  get url(): string {
    return `amqp://guest:guest@127.0.0.1:${this.port}`;
  }

  /** Stops the node (every connection drops) and starts it again; resolves once it accepts AMQP again. */
  async restart(): Promise<void> {
    await this.ctl('stop');
    await waitFor(async () => !(await accepts(this.port)), { timeoutMs: 30_000, description: 'the private broker to be down' });
    await this.bootNode();
  }

  /** Stops the node and removes its data, synchronously (also from an exit hook); safe to call twice. */
  destroy(): void {
    if (!stopOnExit.delete(this)) return;
    spawnSync('rabbitmqctl', ['-q', '-n', this.node, 'stop'], { env: this.env, stdio: 'ignore', timeout: 30_000 });
    rmSync(this.dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
  }

  private async bootNode(): Promise<void> {
    await run('rabbitmq-server', ['-detached'], { env: this.env, cwd: this.dir });
    // Until the node registers with epmd, await_startup fails at once: ask again.
    await waitFor(() => this.ctl('await_startup', '--timeout', '30').then(() => true), {
      timeoutMs: 60_000,
      intervalMs: 250,
      description: `the private RabbitMQ node ${this.node} to start`,
    });
    await waitFor(() => accepts(this.port), { timeoutMs: 30_000, description: 'the private broker to accept connections' });
  }

  private async ctl(...args: string[]): Promise<void> {
    await run('rabbitmqctl', ['-q', '-n', this.node, ...args], { env: this.env, timeout: 60_000 });
  }
}

const stopOnExit = new Set<PrivateRabbitmq>();
process.once('exit', () => {
  for (const broker of stopOnExit) broker.destroy();
});

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}
