import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect } from 'amqplib';
import Redis from 'ioredis';
import { topologyFor } from '@formcast/bus';
import { freePort, startNode, waitForHttp, type Child } from './children';
import { benchDist, config, repoRoot } from './config';

/** A running Formcast API under test: where it answers and which processes it is. */
export interface System {
  origin: string;
  adminToken: string;
  processes: Child[];
  stop(): Promise<void>;
}

export const adminToken = 'bench-admin-token-0123456789abcdef';

function dataDir(label: string): string {
  return mkdtempSync(join(tmpdir(), `formcast-bench-${label}-`));
}

/** `npm start`'s process: services/embedded/dist/main.js, in-process bus, SQLite. */
export async function startEmbeddedSystem(): Promise<System> {
  const dir = dataDir('embedded');
  const port = await freePort();
  const child = startNode('embedded', join(repoRoot, 'services/embedded/dist/main.js'), {
    PORT: String(port),
    DATA_DIR: dir,
    ADMIN_TOKEN: adminToken,
    LOG_LEVEL: config.logLevel,
  });
  const origin = `http://127.0.0.1:${port}`;
  await waitForHttp(`${origin}/readyz`, child);
  return {
    origin,
    adminToken,
    processes: [child],
    stop: async () => {
      await child.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export const distributedServices = ['directory', 'resources', 'push', 'notifier'] as const;

/**
 * Distributed mode: the gateway and each service as a process of its own over the local
 * RabbitMQ (topology under `prefix`), SQLite per service, the notifier's badges in Redis
 * (keys under `redisPrefix`) and its FCM requests to the stand-in on `fcmPort`.
 */
export async function startDistributedSystem(options: { prefix: string; redisPrefix: string; fcmPort: number }): Promise<System> {
  const dirs: string[] = [];
  const script = join(benchDist, 'servers/service.js');
  const common = {
    AMQP_URL: config.amqpUrl,
    BENCH_AMQP_PREFIX: options.prefix,
    ADMIN_TOKEN: adminToken,
    LOG_LEVEL: config.logLevel,
  };
  const services = distributedServices.map((name) => {
    const dir = dataDir(name);
    dirs.push(dir);
    const env: Record<string, string> = { ...common, DATA_DIR: dir };
    if (name === 'notifier') {
      Object.assign(env, { REDIS_URL: config.redisUrl, BENCH_REDIS_PREFIX: options.redisPrefix, BENCH_FCM_PORT: String(options.fcmPort) });
    }
    return startNode(`distributed-${name}`, script, env, [name]);
  });
  const stopEverything = async (processes: Child[]) => {
    for (const child of processes) await child.stop();
    await deleteTopology(options.prefix, [...distributedServices, 'gateway']);
    await deleteRedisKeys(options.redisPrefix);
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  };
  try {
    await Promise.all(services.map((child) => child.message((m) => m?.ready)));
    const gatewayDir = dataDir('gateway');
    dirs.push(gatewayDir);
    const gateway = startNode('distributed-gateway', script, { ...common, DATA_DIR: gatewayDir, PORT: '0' }, ['gateway']);
    services.unshift(gateway);
    const { port } = await gateway.message<{ port: number }>((m) => m?.ready);
    const origin = `http://127.0.0.1:${port}`;
    await waitForHttp(`${origin}/readyz`, gateway);
    return { origin, adminToken, processes: services, stop: () => stopEverything(services) };
  } catch (error) {
    await stopEverything(services);
    throw error;
  }
}

/** Deletes the queues and exchanges of a run's prefix (and any extra queues it declared). */
export async function deleteTopology(prefix: string, services: readonly string[], extraQueues: string[] = []): Promise<void> {
  const topology = topologyFor(prefix);
  const connection = await connect(config.amqpUrl);
  try {
    const channel = await connection.createChannel();
    for (const service of services) {
      await channel.deleteQueue(topology.commandQueue(service));
      await channel.deleteQueue(topology.eventQueue(service));
      await channel.deleteQueue(topology.deadLetterQueue(service));
    }
    for (const queue of extraQueues) await channel.deleteQueue(queue);
    for (const exchange of [topology.commandExchange, topology.eventExchange, topology.deadLetterExchange]) {
      await channel.deleteExchange(exchange);
    }
    await channel.close();
  } finally {
    await connection.close();
  }
}

/** Deletes every Redis key under `prefix`. */
export async function deleteRedisKeys(prefix: string): Promise<number> {
  const redis = new Redis(config.redisUrl, { lazyConnect: true, maxRetriesPerRequest: 2 });
  await redis.connect();
  let deleted = 0;
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
      cursor = next;
      if (keys.length > 0) deleted += await redis.del(...keys);
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
  return deleted;
}
