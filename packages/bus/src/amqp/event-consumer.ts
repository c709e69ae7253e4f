import type { Envelope } from '@formcast/contracts';
import type { Logger } from '@formcast/platform';
import type { Channel, ConsumeMessage } from 'amqplib';
import { delay, retryDelayAfter, type ResolvedBusOptions } from '../bus-options';
import { envelopeOfMessage } from './amqp-envelope';
import { logHandlerFailure, messageFields } from '../log-fields';
import type { EventHandler } from '../port';
import type { AmqpEventPublisher } from './event-publisher';
import { QueueConsumer, type QueueConsumerDeps } from './queue-consumer';
import { ack, deadLetter, requeue } from './settle-message';
import { attemptsHeader } from './topology';

export interface EventConsumerDeps extends QueueConsumerDeps {
  options: ResolvedBusOptions;
  /** Republishes retries, confirmed. */
  publisher: AmqpEventPublisher;
}

/**
 * Consumes one service's event queue. An event is acknowledged once its handler is done.
 * When the handler throws, the event is held for the backoff delay, then a copy with the
 * next `x-attempts` is published back to the queue (confirmed) and the original acked; after
 * the last attempt it is nacked without requeue, which dead-letters it.
 */
export class AmqpEventConsumer extends QueueConsumer<EventHandler> {
  constructor(
    service: string,
    private readonly deps: EventConsumerDeps,
  ) {
    super(service, deps, 'event');
  }

  protected override async handle(channel: Channel, message: ConsumeMessage): Promise<void> {
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
      await handler(event, { attempt, redelivered: message.fields.redelivered });
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
