import type { Envelope } from '@formcast/contracts';
import { AppError, type Logger } from '@formcast/platform';
import type { ChannelModel, ConfirmChannel, Options } from 'amqplib';
import type { AmqpMessage } from './amqp-envelope';
import { DrainGate } from './drain-gate';
import { ManagedChannel } from './managed-channel';
import { declareEventExchange, type Topology } from './topology';

/** Publishes persistent messages on a confirm channel; each publish resolves on the broker's confirm. */
export class AmqpEventPublisher {
  readonly channel: ManagedChannel<ConfirmChannel>;
  private readonly gate = new DrainGate();

  constructor(
    logger: Logger,
    private readonly topology: Topology,
  ) {
    this.channel = new ManagedChannel<ConfirmChannel>({
      name: 'event-publishing',
      open: (model: ChannelModel) => model.createConfirmChannel(),
      setup: (channel) => declareEventExchange(channel, topology),
      logger,
    });
  }

  publishEvent(event: Envelope, { content, contentType, headers }: AmqpMessage): Promise<void> {
    return this.publishConfirmed(this.topology.eventExchange, event.type, content, {
      persistent: true,
      contentType,
      headers,
      messageId: event.id,
      type: event.type,
    });
  }

  /** Straight to `queue` through the default exchange (how a failed event is retried). */
  sendToQueue(queue: string, content: Buffer, options: Options.Publish): Promise<void> {
    return this.publishConfirmed('', queue, content, { ...options, persistent: true });
  }

  private async publishConfirmed(
    exchange: string,
    routingKey: string,
    content: Buffer,
    options: Options.Publish,
  ): Promise<void> {
    await this.gate.wait();
    const channel = this.channel.current;
    if (!channel) throw new AppError('unavailable', 'Not connected to the broker');
    await new Promise<void>((resolve, reject) => {
      const confirmed = (err: unknown) => {
        if (err) reject(new AppError('unavailable', 'The broker did not confirm the message'));
        else resolve();
      };
      try {
        this.gate.after(channel.publish(exchange, routingKey, content, options, confirmed), channel);
      } catch {
        reject(new AppError('unavailable', 'Not connected to the broker'));
      }
    });
  }
}
