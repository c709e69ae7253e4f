import type { Envelope } from '@formcast/contracts';
import type { Logger } from '@formcast/platform';
import type { Channel, ChannelModel, ConsumeMessage } from 'amqplib';
import { delay, retryDelayAfter, type ResolvedBusOptions } from '../bus-options';
import { envelopeOfMessage } from './amqp-envelope';
import type { InFlight } from '../in-flight';
import { logHandlerFailure, messageFields } from '../log-fields';
import type { EventHandler } from '../port';
import type { AmqpEventPublisher } from './event-publisher';
import { ManagedChannel } from './managed-channel';
import { ack, deadLetter, requeue } from './settle-message';
import { attemptsHeader, declareEventQueue, type Topology } from './topology';

export interface EventConsumerDeps {
  logger: Logger;
  topology: Topology;
  prefetch: number;
  options: ResolvedBusOptions;
  /** Where running handlers are tracked, so close() can wait for them. */
  inFlight: InFlight;
  /** Republishes retries, confirmed. */
  publisher: AmqpEventPublisher;
}

/**
 * Consumes one service's event queue. An event is acknowledged once its handler is done.
 * When the handler throws, the event is held for the backoff delay, then a copy with the
 * next `x-attempts` is published back to the queue (confirmed) and the original acked; after
 * the last attempt it is nacked without requeue, which dead-letters it.
 */
export class AmqpEventConsumer {
  readonly channel: ManagedChannel;
  private readonly handlers = new Map<string, EventHandler>();
  private readonly queue: string;
  private readonly logger: Logger;
  private consumerTag: string | null = null;
  private stopped = false;

  constructor(
    private readonly service: string,
    private readonly deps: EventConsumerDeps,
  ) {
    this.queue = deps.topology.eventQueue(service);
    this.logger = deps.logger.child({ service });
    this.channel = new ManagedChannel({
      name: `${service}-events`,
      open: (model: ChannelModel) => model.createChannel(),
      setup: (channel) => this.setUp(channel),
      logger: this.logger,
    });
  }

  /** Handles `type` from now on; binds it at once when the channel is open. */
  async add(type: string, handler: EventHandler): Promise<void> {
    this.handlers.set(type, handler);
    await this.channel.current?.bindQueue(this.queue, this.deps.topology.eventExchange, type);
  }

  hasHandlerFor(type: string): boolean {
    return this.handlers.has(type);
  }

  async stopConsuming(): Promise<void> {
    this.stopped = true;
    const channel = this.channel.current;
    if (channel && this.consumerTag) await channel.cancel(this.consumerTag).catch(() => undefined);
    this.consumerTag = null;
  }

  private async setUp(channel: Channel): Promise<void> {
    await channel.prefetch(this.deps.prefetch);
    await declareEventQueue(channel, this.deps.topology, this.service, this.handlers.keys());
    if (this.stopped) return;
    const { consumerTag } = await channel.consume(this.queue, (message) => this.onMessage(channel, message));
    this.consumerTag = consumerTag;
  }

  private onMessage(channel: Channel, message: ConsumeMessage | null): void {
    if (!message) {
      // The broker cancelled the consumer (its queue was deleted): reopening re-declares it.
      this.logger.warn('event consumer cancelled by the broker');
      void channel.close().catch(() => undefined);
      return;
    }
    void this.deps.inFlight.track(this.handle(channel, message));
  }

  private async handle(channel: Channel, message: ConsumeMessage): Promise<void> {
    const event = envelopeOfMessage(message);
    const handler = event && this.handlers.get(event.type);
    if (!event || !handler) {
      this.logger.warn({ type: event?.type }, event ? 'no handler for this event; dead-lettered' : 'not an envelope; dead-lettered');
      deadLetter(channel, message);
      return;
    }
    const attempt = attemptOf(message);
    const fields = { attempt, ...messageFields(event) };
    try {
      await handler(event);
      ack(channel, message);
      return;
    } catch (error) {
      logHandlerFailure(this.logger, error, fields, 'event handler failed', 'warn');
    }
    if (attempt >= this.deps.options.maxAttempts) {
      this.logger.error(fields, 'event dead-lettered after its last attempt');
      deadLetter(channel, message);
      return;
    }
    await delay(retryDelayAfter(attempt, this.deps.options));
    await this.retry(channel, message, event, attempt);
  }

  private async retry(channel: Channel, message: ConsumeMessage, event: Envelope, attempt: number): Promise<void> {
    const { properties } = message;
    try {
      await this.deps.publisher.sendToQueue(this.queue, message.content, {
        contentType: properties.contentType,
        messageId: properties.messageId,
        type: properties.type,
        headers: { ...properties.headers, [attemptsHeader]: attempt + 1 },
      });
      ack(channel, message);
    } catch (err) {
      this.logger.warn({ err, ...messageFields(event) }, 'could not republish the event for retry; requeued');
      requeue(channel, message);
    }
  }
}

function attemptOf(message: ConsumeMessage): number {
  const value: unknown = message.properties.headers?.[attemptsHeader];
  return typeof value === 'number' && Number.isInteger(value) && value >= 1 ? value : 1;
}
