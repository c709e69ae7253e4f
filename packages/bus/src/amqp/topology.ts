import type { Channel } from 'amqplib';

/** RabbitMQ's pseudo-queue for replies straight to the requesting channel. */
export const directReplyQueue = 'amq.rabbitmq.reply-to';
/** Which attempt at handling an event this delivery is (1 when absent). */
export const attemptsHeader = 'x-attempts';
export const jsonContentType = 'application/json';

/**
 * The names of every exchange and queue, all under one prefix (`formcast` unless told
 * otherwise), so separate systems (an end-to-end test run, a staging stack) can share a
 * broker without seeing each other's messages.
 */
export interface Topology {
  /** Commands, routed by name to the queue of the service that serves them (direct). */
  commandExchange: string;
  /** Events, routed by name to the queue of every service subscribed to them (topic). */
  eventExchange: string;
  /** Where a service's failed or malformed events go, routed by its dead-letter queue name (direct). */
  deadLetterExchange: string;
  commandQueue(service: string): string;
  eventQueue(service: string): string;
  deadLetterQueue(service: string): string;
}

export const defaultTopologyPrefix = 'formcast';

export function topologyFor(prefix: string = defaultTopologyPrefix): Topology {
  return {
    commandExchange: `${prefix}.commands`,
    eventExchange: `${prefix}.events`,
    deadLetterExchange: `${prefix}.dead-letter`,
    commandQueue: (service) => `${prefix}.${service}.commands`,
    eventQueue: (service) => `${prefix}.${service}.events`,
    deadLetterQueue: (service) => `${prefix}.${service}.events.dead-letter`,
  };
}

export async function declareCommandExchange(channel: Channel, topology: Topology): Promise<void> {
  await channel.assertExchange(topology.commandExchange, 'direct', { durable: true });
}

export async function declareEventExchange(channel: Channel, topology: Topology): Promise<void> {
  await channel.assertExchange(topology.eventExchange, 'topic', { durable: true });
}

/** The service's command queue, bound by every command name it serves. */
export async function declareCommandQueue(
  channel: Channel,
  topology: Topology,
  service: string,
  types: Iterable<string>,
): Promise<void> {
  await declareCommandExchange(channel, topology);
  const queue = topology.commandQueue(service);
  await channel.assertQueue(queue, { durable: true });
  for (const type of types) await channel.bindQueue(queue, topology.commandExchange, type);
}

/**
 * The service's event queue, bound by every event name it subscribes to, and its
 * dead-letter queue. The dead-letter routing key is the service's own, so an event
 * dead-lettered by one service never shows up in another's dead-letter queue.
 */
export async function declareEventQueue(
  channel: Channel,
  topology: Topology,
  service: string,
  types: Iterable<string>,
): Promise<void> {
  await declareEventExchange(channel, topology);
  await channel.assertExchange(topology.deadLetterExchange, 'direct', { durable: true });
  const deadLetters = topology.deadLetterQueue(service);
  await channel.assertQueue(deadLetters, { durable: true });
  await channel.bindQueue(deadLetters, topology.deadLetterExchange, deadLetters);
  const queue = topology.eventQueue(service);
  await channel.assertQueue(queue, {
    durable: true,
    deadLetterExchange: topology.deadLetterExchange,
    deadLetterRoutingKey: deadLetters,
  });
  for (const type of types) await channel.bindQueue(queue, topology.eventExchange, type);
}
