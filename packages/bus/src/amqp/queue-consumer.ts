import type { Logger } from '@formcast/platform';
import type { Channel, ChannelModel, ConsumeMessage } from 'amqplib';
import type { InFlight } from '../in-flight';
import { ManagedChannel } from './managed-channel';
import { declareCommandQueue, declareEventQueue, type Topology } from './topology';

export interface QueueConsumerDeps {
  logger: Logger;
  topology: Topology;
  prefetch: number;
  /** Where running handlers are tracked, so close() can wait for them. */
  inFlight: InFlight;
}

type QueueKind = 'command' | 'event';

/** Where a kind of message is consumed: the service's queue, the exchange its types are bound from, how it is declared. */
interface ConsumedQueue {
  queue: 'commandQueue' | 'eventQueue';
  exchange: 'commandExchange' | 'eventExchange';
  declare: typeof declareCommandQueue;
}

const consumedQueues: Record<QueueKind, ConsumedQueue> = {
  command: { queue: 'commandQueue', exchange: 'commandExchange', declare: declareCommandQueue },
  event: { queue: 'eventQueue', exchange: 'eventExchange', declare: declareEventQueue },
};

/**
 * One service's queue, consumed on a channel of its own: handlers by message type, each
 * type bound as it is added, the consumer started again on every (re)open with at most
 * `prefetch` unacknowledged messages, each delivery handled in `inFlight`. Subclasses say
 * how a delivery is handled and settled.
 */
export abstract class QueueConsumer<Handler> {
  readonly channel: ManagedChannel;
  protected readonly handlers = new Map<string, Handler>();
  protected readonly queue: string;
  protected readonly logger: Logger;
  private consumerTag: string | null = null;
  private stopped = false;

  protected constructor(
    protected readonly service: string,
    private readonly consumerDeps: QueueConsumerDeps,
    private readonly kind: QueueKind,
  ) {
    this.queue = consumerDeps.topology[consumedQueues[kind].queue](service);
    this.logger = consumerDeps.logger.child({ service });
    this.channel = new ManagedChannel({
      name: `${service}-${kind}s`,
      open: (model: ChannelModel) => model.createChannel(),
      setup: (channel) => this.setUp(channel),
      logger: this.logger,
    });
  }

  /** Handles `type` from now on; binds it at once when the channel is open. */
  async add(type: string, handler: Handler): Promise<void> {
    this.handlers.set(type, handler);
    await this.channel.current?.bindQueue(this.queue, this.consumerDeps.topology[consumedQueues[this.kind].exchange], type);
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

  /** Handles one delivery and settles it (ack, nack) on `channel`, which delivered it. */
  protected abstract handle(channel: Channel, message: ConsumeMessage): Promise<void>;

  private async setUp(channel: Channel): Promise<void> {
    await channel.prefetch(this.consumerDeps.prefetch);
    await consumedQueues[this.kind].declare(channel, this.consumerDeps.topology, this.service, this.handlers.keys());
    if (this.stopped) return;
    const { consumerTag } = await channel.consume(this.queue, (message) => this.onMessage(channel, message));
    this.consumerTag = consumerTag;
  }

  private onMessage(channel: Channel, message: ConsumeMessage | null): void {
    if (!message) {
      // The broker cancelled the consumer (its queue was deleted): reopening re-declares it.
      this.logger.warn(`${this.kind} consumer cancelled by the broker`);
      void channel.close().catch(() => undefined);
      return;
    }
    void this.consumerDeps.inFlight.track(this.handle(channel, message));
  }
}
