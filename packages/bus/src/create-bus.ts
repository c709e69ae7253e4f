import type { Logger } from '@formcast/platform';
import { AmqpBus } from './amqp-bus';
import { InProcessBus } from './in-process-bus';
import type { Bus, BusOptions } from './port';

export interface CreateBusOptions extends BusOptions {
  /** RabbitMQ URL; without one the bus lives in this process (embedded mode). */
  amqpUrl?: string;
  logger?: Logger;
  /** AMQP only: unacknowledged messages per consumer (default 32). */
  prefetch?: number;
  /** AMQP only: unacknowledged commands per service (default: `prefetch`). */
  commandPrefetch?: number;
  /** AMQP only: events taken beyond `prefetch`, waiting in their organization's line, so another organization's event behind a backlog is seen (default 4096; 0 with eventsPerOrganization 0). */
  eventLookAhead?: number;
  /** AMQP only: the name RabbitMQ shows for the connection. */
  connectionName?: string;
  /** AMQP only: the first part of every exchange and queue name (default `formcast`). */
  prefix?: string;
}

export function createBus({ amqpUrl, prefetch, commandPrefetch, eventLookAhead, connectionName, prefix, ...options }: CreateBusOptions = {}): Bus {
  return amqpUrl
    ? new AmqpBus({ ...options, url: amqpUrl, prefetch, commandPrefetch, eventLookAhead, connectionName, prefix })
    : new InProcessBus(options);
}
