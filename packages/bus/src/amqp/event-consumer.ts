import type { Envelope } from '@formcast/contracts';
import type { Logger } from '@formcast/platform';
import type { Channel, ConsumeMessage } from 'amqplib';
import { delay, retryDelayAfter, type ResolvedBusOptions } from '../bus-options';
import { envelopeOfMessage } from './amqp-envelope';
import { logHandlerFailure, messageFields } from '../log-fields';
import type { OrganizationGate } from '../organization-gate';
import type { EventHandler } from '../port';
import type { AmqpEventPublisher } from './event-publisher';
import { QueueConsumer, type QueueConsumerDeps } from './queue-consumer';
import type { RunningLimit } from './running-limit';
import { ack, deadLetter, requeue } from './settle-message';
import { attemptsHeader } from './topology';

export interface EventConsumerDeps extends QueueConsumerDeps {
  options: ResolvedBusOptions;
  /** Republishes retries, confirmed. */
  publisher: AmqpEventPublisher;
  /** The service's organizations' slots (fair service, BUS_EVENTS_PER_ORGANIZATION). */
  gate: OrganizationGate;
  /** Handlers of all organizations running at once (the bus's `prefetch`; `prefetch` here is the window, look-ahead included). */
  running: RunningLimit;
}

/** How many times an event was sent to the back of its queue; past `maxDeferrals` it waits for its turn in the process. */
export const deferredHeader = 'x-formcast-deferred';
export const maxDeferrals = 3;

/**
 * Consumes one service's event queue. An event is acknowledged once its handler is done.
 * When the handler throws, the event is held for the backoff delay, then a copy with the
 * next `x-attempts` is published back to the queue (confirmed) and the original acked; after
 * the last attempt it is nacked without requeue, which dead-letters it.
 *
 * Fair service: at most `gate.perOrganization` events of one organization are handled at
 * once, more wait for its own slots, and at most `running.size` (the bus's `prefetch`) of all
 * organizations. The consumer takes up to `eventLookAhead` events more than that from the
 * queue only to wait in their organization's line: another organization's event that far
 * behind a backlog is seen, and served, at no cost to the backlog's events (nothing is
 * republished). Past the look-ahead the broker's queue, first in, first out, would hold every
 * other organization's newer events behind a backlog (54,000 revocations); so an event that
 * fills the window while its organization has its slots taken and a quarter as many waiting goes to the
 * back of the queue (confirmed, then acked; at most `maxDeferrals` times, counted in
 * `x-formcast-deferred`), one at a time: a single organization's stream, with nobody to be
 * fair to, pays for one such probe under way, not for its whole window cycled through the
 * broker. Handlers already take events out of order (a retry goes to the back the same way).
 */
export class AmqpEventConsumer extends QueueConsumer<EventHandler> {
  /** Whether an event is on its way to the back of the queue (one at a time). */
  private sendingToBack = false;
  /** Events taken from the queue and not yet settled: the window, look-ahead included. */
  private held = 0;

  constructor(
    service: string,
    private readonly deps: EventConsumerDeps,
  ) {
    super(service, deps, 'event');
  }

  protected override async handle(channel: Channel, message: ConsumeMessage): Promise<void> {
    this.held += 1;
    try {
      await this.settle(channel, message);
    } finally {
      this.held -= 1;
    }
  }

  private async settle(channel: Channel, message: ConsumeMessage): Promise<void> {
    const event = envelopeOfMessage(message);
    const handler = event && this.handlers.get(event.type);
    if (!event || !handler) {
      this.logger.warn({ type: event?.type }, event ? 'no handler for this event; dead-lettered' : 'not an envelope; dead-lettered');
      deadLetter(channel, message);
      return;
    }
    const attempt = attemptOf(message);
    const fields = { attempt, ...messageFields(event) };
    if (this.isOverShare(event, message) && (await this.sendToBack(channel, message, event))) return;
    const { gate, running } = this.deps;
    try {
      await gate.run(event.orgId, () => running.run(() => handler(event, { attempt, redelivered: message.fields.redelivered })));
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

  private isOverShare(event: Envelope, message: ConsumeMessage): boolean {
    const { gate } = this.deps;
    // The broker shows nothing further back until the window has room: only then is anything moved.
    if (this.sendingToBack || this.held < this.deps.prefetch) return false;
    if (event.orgId === null || !gate.isFull(event.orgId)) return false;
    if (deferralsOf(message) >= maxDeferrals) return false;
    return gate.waitingFor(event.orgId) >= Math.max(1, Math.floor(gate.perOrganization / 4));
  }

  /** The event to the back of the queue, marked deferred; false (handled here after all) when the broker does not confirm it. */
  private async sendToBack(channel: Channel, message: ConsumeMessage, event: Envelope): Promise<boolean> {
    const { properties } = message;
    this.sendingToBack = true;
    try {
      await this.deps.publisher.sendToQueue(this.queue, message.content, {
        contentType: properties.contentType,
        messageId: properties.messageId,
        type: properties.type,
        headers: { ...properties.headers, [deferredHeader]: deferralsOf(message) + 1 },
      });
    } catch (err) {
      this.logger.debug({ err, ...messageFields(event) }, 'could not send the event to the back of the queue; handled in turn');
      return false;
    } finally {
      this.sendingToBack = false;
    }
    ack(channel, message);
    return true;
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

function deferralsOf(message: ConsumeMessage): number {
  const value: unknown = message.properties.headers?.[deferredHeader];
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : 0;
}

function attemptOf(message: ConsumeMessage): number {
  const value: unknown = message.properties.headers?.[attemptsHeader];
  return typeof value === 'number' && Number.isInteger(value) && value >= 1 ? value : 1;
}
