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

/** A Formcast process as `npm start` and `npm run start:<service>` run it: through bin/formcast-node. */
function startFormcastProcess(name: string, script: string, env: Record<string, string>): Child {
  return startNode(name, script, { ...env, ...config.serviceEnv }, { formcast: true });
}

/** S6's receiver is on 127.0.0.1. */
/**
 * The bench measures capacity from one client address and a few organizations: every rate
 * limit far above what it sends (a scenario about limits sets its own in its variant's env).
 */
export const benchRateLimits = {
  RATE_LIMIT_ORGANIZATION_PER_SECOND: '1000000',
  RATE_LIMIT_ORGANIZATION_BURST: '1000000',
  RATE_LIMIT_DEVICE_PER_SECOND: '1000000',
  RATE_LIMIT_DEVICE_BURST: '1000000',
  RATE_LIMIT_ADDRESS_PER_SECOND: '1000000',
  RATE_LIMIT_ADDRESS_BURST: '1000000',
  RATE_LIMIT_ENROLLMENT_PER_SECOND: '1000000',
  RATE_LIMIT_ENROLLMENT_BURST: '1000000',
};
const deliverySettings = { DELIVERY_ALLOW_PRIVATE_NETWORKS: 'true', ...benchRateLimits };

/** A second system beside the first: its processes' names end in `suffix`, `env` adds settings (METRICS_ENABLED=false, …). */
export interface SystemVariant {
  suffix?: string;
  env?: Record<string, string>;
}

/** `npm start`'s process: services/embedded/dist/main.js, in-process bus, SQLite. */
export async function startEmbeddedSystem({ suffix = '', env = {} }: SystemVariant = {}): Promise<System> {
  const dir = dataDir('embedded');
  const port = await freePort();
  const child = startFormcastProcess(`embedded${suffix}`, join(repoRoot, 'services/embedded/dist/main.js'), {
    PORT: String(port),
    DATA_DIR: dir,
    ADMIN_TOKEN: adminToken,
    LOG_LEVEL: config.logLevel,
    ...deliverySettings,
    ...env,
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

export const distributedServices = ['directory', 'resources', 'push', 'notifier', 'delivery'] as const;

/** `redis://…?keyPrefix=…`: ioredis puts the prefix before every key (as the distributed test harness does). */
function redisUrlWithKeyPrefix(keyPrefix: string): string {
  const url = new URL(config.redisUrl);
  url.searchParams.set('keyPrefix', keyPrefix);
  return url.toString();
}

/**
 * Distributed mode as `npm run start:<service>` runs it: the gateway and each service as a
 * process of its own from `services/<name>/dist/main.js`, over the local RabbitMQ under
 * AMQP_PREFIX `prefix`, SQLite per service, the notifier's badges in Redis under
 * `redisPrefix`. Ready when each service's /readyz (HEALTH_PORT) and the gateway's answer.
 */
export async function startDistributedSystem(options: { prefix: string; redisPrefix: string } & SystemVariant): Promise<System> {
  const dirs: string[] = [];
  const suffix = options.suffix ?? '';
  const common = {
    AMQP_URL: config.amqpUrl,
    AMQP_PREFIX: options.prefix,
    ADMIN_TOKEN: adminToken,
    LOG_LEVEL: config.logLevel,
    // Each gateway's /metrics on a free port (two systems side by side would meet on the default).
    METRICS_PORT: '0',
    ...deliverySettings,
    ...options.env,
  };
  const processes: Child[] = [];
  const stopEverything = async () => {
    for (const child of processes) await child.stop();
    await deleteTopology(options.prefix, [...distributedServices, 'gateway']);
    await deleteRedisKeys(options.redisPrefix);
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  };
  try {
    await Promise.all(
      distributedServices.map(async (name) => {
        const dir = dataDir(name);
        dirs.push(dir);
        const healthPort = await freePort();
        const child = startFormcastProcess(`distributed-${name}${suffix}`, join(repoRoot, `services/${name}/dist/main.js`), {
          ...common,
          DATA_DIR: dir,
          HEALTH_PORT: String(healthPort),
          ...(name === 'notifier' ? { REDIS_URL: redisUrlWithKeyPrefix(options.redisPrefix) } : {}),
        });
        processes.push(child);
        await waitForHttp(`http://127.0.0.1:${healthPort}/readyz`, child);
      }),
    );
    const gatewayDir = dataDir('gateway');
    dirs.push(gatewayDir);
    const port = await freePort();
    const gateway = startFormcastProcess(`distributed-gateway${suffix}`, join(repoRoot, 'services/gateway/dist/main.js'), {
      ...common,
      DATA_DIR: gatewayDir,
      PORT: String(port),
      // As k8s/ runs it (REDIS_URL from formcast-secrets): rate limits' buckets in Redis, shared by replicas.
      REDIS_URL: redisUrlWithKeyPrefix(options.redisPrefix),
    });
    processes.unshift(gateway); // stopped first
    const origin = `http://127.0.0.1:${port}`;
    await waitForHttp(`${origin}/readyz`, gateway);
    const ordered = [gateway, ...distributedServices.map((name) => processes.find((c) => c.name === `distributed-${name}${suffix}`)!)];
    return { origin, adminToken, processes: ordered, stop: stopEverything };
  } catch (error) {
    await stopEverything();
    throw error;
  }
}

/**
 * S5's notifier, alone under its own `prefix` (so no other notifier competes for its
 * events): notifier/dist/main.js with the FCM stand-in on `fcmPort` as its FCM.
 */
export async function startStandInNotifier(options: { prefix: string; redisPrefix: string; fcmPort: number }): Promise<{ child: Child; stop(): Promise<void> }> {
  const dir = dataDir('notifier-s5');
  const healthPort = await freePort();
  const child = startFormcastProcess('notifier (S5, FCM stand-in)', join(benchDist, 'servers/notifier-with-stand-in.js'), {
    AMQP_URL: config.amqpUrl,
    AMQP_PREFIX: options.prefix,
    REDIS_URL: redisUrlWithKeyPrefix(options.redisPrefix),
    DATA_DIR: dir,
    HEALTH_PORT: String(healthPort),
    LOG_LEVEL: config.logLevel,
    BENCH_FCM_PORT: String(options.fcmPort),
  });
  const stop = async () => {
    await child.stop();
    await deleteTopology(options.prefix, ['notifier']);
    await deleteRedisKeys(options.redisPrefix);
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    await waitForHttp(`http://127.0.0.1:${healthPort}/readyz`, child);
  } catch (error) {
    await stop();
    throw error;
  }
  return { child, stop };
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
