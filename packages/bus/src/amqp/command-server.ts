import type { Reply } from '@formcast/contracts';
import { AppError, type Logger } from '@formcast/platform';
import type { Channel, ChannelModel, ConsumeMessage } from 'amqplib';
import { envelopeOfMessage, replyAsAmqpMessage } from './amqp-envelope';
import type { InFlight } from '../in-flight';
import { logHandlerFailure, messageFields } from '../log-fields';
import type { CommandHandler } from '../port';
import { encodeReply, replyWithError, replyWithValue } from '../reply-codec';
import { DrainGate } from './drain-gate';
import { ManagedChannel } from './managed-channel';
import { ack } from './settle-message';
import { declareCommandQueue, type Topology } from './topology';

export interface CommandServerDeps {
  logger: Logger;
  topology: Topology;
  prefetch: number;
  /** Where running handlers are tracked, so close() can wait for them. */
  inFlight: InFlight;
}

/**
 * Serves one service's command queue (competing consumers across replicas). The command is
 * acknowledged after its reply is sent, so a replica that dies mid-command leaves it to
 * another one; the message's expiration bounds how late that can happen.
 */
export class AmqpCommandServer {
  readonly channel: ManagedChannel;
  private readonly handlers = new Map<string, CommandHandler>();
  private readonly queue: string;
  private readonly logger: Logger;
  private readonly gate = new DrainGate();
  private consumerTag: string | null = null;
  private stopped = false;

  constructor(
    private readonly service: string,
    private readonly deps: CommandServerDeps,
  ) {
    this.queue = deps.topology.commandQueue(service);
    this.logger = deps.logger.child({ service });
    this.channel = new ManagedChannel({
      name: `${service}-commands`,
      open: (model: ChannelModel) => model.createChannel(),
      setup: (channel) => this.setUp(channel),
      logger: this.logger,
    });
  }

  /** Serves `type` from now on; binds it at once when the channel is open. */
  async add(type: string, handler: CommandHandler): Promise<void> {
    this.handlers.set(type, handler);
    await this.channel.current?.bindQueue(this.queue, this.deps.topology.commandExchange, type);
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
    await declareCommandQueue(channel, this.deps.topology, this.service, this.handlers.keys());
    if (this.stopped) return;
    const { consumerTag } = await channel.consume(this.queue, (message) => this.onMessage(channel, message));
    this.consumerTag = consumerTag;
  }

  private onMessage(channel: Channel, message: ConsumeMessage | null): void {
    if (!message) {
      // The broker cancelled the consumer (its queue was deleted): reopening re-declares it.
      this.logger.warn('command consumer cancelled by the broker');
      void channel.close().catch(() => undefined);
      return;
    }
    void this.deps.inFlight.track(this.serve(channel, message));
  }

  private async serve(channel: Channel, message: ConsumeMessage): Promise<void> {
    const reply = await this.replyTo(message);
    const { replyTo, correlationId } = message.properties;
    if (replyTo) {
      await this.gate.wait();
      try {
        const { content, contentType, headers } = replyAsAmqpMessage(encodeReply(reply), reply.ok ? reply.attachment : undefined);
        const accepted = channel.publish('', String(replyTo), content, { correlationId, contentType, headers });
        this.gate.after(accepted, channel);
      } catch {
        return; // channel gone: unacked, so the command is redelivered
      }
    }
    ack(channel, message);
  }

  private async replyTo(message: ConsumeMessage): Promise<Reply> {
    const command = envelopeOfMessage(message);
    if (!command) {
      this.logger.warn('received a command that is not an envelope');
      return replyWithError(new AppError('invalid', 'The command is not an envelope'));
    }
    const handler = this.handlers.get(command.type);
    if (!handler) {
      return replyWithError(new AppError('unavailable', `${this.service} does not handle ${command.type}`));
    }
    try {
      return replyWithValue(await handler(command));
    } catch (error) {
      logHandlerFailure(this.logger, error, messageFields(command), 'command failed', 'debug');
      return replyWithError(error);
    }
  }
}
