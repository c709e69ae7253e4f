import { connect } from 'amqplib';
import { topologyFor } from '@formcast/bus';

/** Deletes the exchanges and queues an end-to-end run declared under its own prefix. */
export async function deleteTestTopology(url: string, prefix: string, services: string[]): Promise<void> {
  const topology = topologyFor(prefix);
  const connection = await connect(url);
  try {
    const channel = await connection.createChannel();
    channel.on('error', () => undefined);
    for (const service of services) {
      await channel.deleteQueue(topology.commandQueue(service));
      await channel.deleteQueue(topology.eventQueue(service));
      await channel.deleteQueue(topology.deadLetterQueue(service));
    }
    for (const exchange of [topology.commandExchange, topology.eventExchange, topology.deadLetterExchange]) {
      await channel.deleteExchange(exchange);
    }
    await channel.close();
  } finally {
    await connection.close();
  }
}
