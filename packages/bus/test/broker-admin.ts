import { execFile, spawnSync } from 'node:child_process';
import { promisify } from 'node:util';
import { connect, type Channel } from 'amqplib';
import { topologyFor, type Topology } from '../src/amqp/topology';

const run = promisify(execFile);

/** Whether something listens at the URL's host and port (checked synchronously, for describe.skip). */
export function brokerListening(url: string): boolean {
  const { hostname, port } = new URL(url);
  const probe = `require('node:net').connect(${Number(port || 5672)}, ${JSON.stringify(hostname)})
    .on('connect', () => process.exit(0)).on('error', () => process.exit(1));
    setTimeout(() => process.exit(1), 2000);`;
  return spawnSync(process.execPath, ['-e', probe]).status === 0;
}

/** The RabbitMQ the bus suites use: AMQP_URL, else the local one. */
export const brokerUrl = process.env.AMQP_URL ?? 'amqp://guest:guest@127.0.0.1:5672';

/**
 * `describe` when a broker answers at brokerUrl, else `describe.skip` with a line saying so
 * and what would run it. An explicitly configured broker that is down is a failure, not a
 * reason to skip.
 */
export function describeWithBroker(what: string): jest.Describe {
  if (process.env.AMQP_URL !== undefined || brokerListening(brokerUrl)) return describe;
  console.warn(`${what} tests skipped: no RabbitMQ at ${brokerUrl}; start one there or set AMQP_URL to run them.`);
  return describe.skip;
}

export function hasRabbitmqctl(): boolean {
  return spawnSync('rabbitmqctl', ['-q', 'list_vhosts'], { stdio: 'ignore' }).status === 0;
}

/** Has the broker force-close the connection named `connectionName`, as an operator or a failover would. */
export async function closeConnectionOnBroker(connectionName: string): Promise<void> {
  const { stdout } = await run('rabbitmqctl', ['-q', 'list_connections', 'pid', 'client_properties']);
  const line = stdout.split('\n').find((l) => l.includes(`{"connection_name","${connectionName}"}`));
  const pid = line?.split('\t')[0];
  if (!pid) throw new Error(`No broker connection named ${connectionName}`);
  await run('rabbitmqctl', ['-q', 'close_connection', pid, 'test']);
}

/** Runs `work` on a channel of a separate connection, the way an operator's tool would. */
export async function withOwnChannel<T>(url: string, work: (channel: Channel) => Promise<T>): Promise<T> {
  const connection = await connect(url);
  try {
    const channel = await connection.createChannel();
    channel.on('error', () => undefined);
    try {
      return await work(channel);
    } finally {
      // Closing the channel first flushes what it published: amqplib may send a connection
      // close ahead of frames still queued on a channel.
      await channel.close().catch(() => undefined);
    }
  } finally {
    await connection.close();
  }
}

export function queuesOf(service: string, topology: Topology = topologyFor()): string[] {
  return [topology.commandQueue(service), topology.eventQueue(service), topology.deadLetterQueue(service)];
}

export async function deleteQueues(url: string, queues: Iterable<string>): Promise<void> {
  await withOwnChannel(url, async (channel) => {
    for (const queue of queues) await channel.deleteQueue(queue);
  });
}

/** For a topology of a test's own: its exchanges go too. */
export async function deleteExchanges(url: string, topology: Topology): Promise<void> {
  await withOwnChannel(url, async (channel) => {
    for (const exchange of [topology.commandExchange, topology.eventExchange, topology.deadLetterExchange]) {
      await channel.deleteExchange(exchange);
    }
  });
}
