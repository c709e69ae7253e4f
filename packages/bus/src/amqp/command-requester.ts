import { randomUUID } from 'node:crypto';
import type { Envelope, Reply } from '@formcast/contracts';
import { AppError, type Logger } from '@formcast/platform';
import type { Channel, ChannelModel, ConsumeMessage, Message } from 'amqplib';
import { decodeReply } from '../reply-codec';
import { replyOfMessage, type AmqpMessage } from './amqp-envelope';
import { DrainGate } from './drain-gate';
import { ManagedChannel } from './managed-channel';
import { declareCommandExchange, directReplyQueue, type Topology } from './topology';

interface WaitingRequest {
  type: string;
  settle: (outcome: { reply: Reply } | { error: AppError }) => void;
}

/**
 * The caller's side of commands. Requests go out on one channel that also consumes
 * RabbitMQ's direct reply-to (consumed before anything is published, as it requires);
 * replies are matched by correlation id, and one whose caller stopped waiting is dropped.
 */
export class AmqpCommandRequester {
  readonly channel: ManagedChannel;
  private readonly waiting = new Map<string, WaitingRequest>();
  private readonly gate = new DrainGate();

  constructor(
    private readonly logger: Logger,
    private readonly topology: Topology,
  ) {
    this.channel = new ManagedChannel({
      name: 'command-requests',
      open: (model: ChannelModel) => model.createChannel(),
      setup: (channel) => this.setUp(channel),
      onLost: () => this.failAll(new AppError('unavailable', 'Lost the broker connection while waiting for the reply')),
      logger,
    });
  }

  /** Resolves with the reply, whatever it says; rejects only when none came (timeout, lost connection). */
  async request(command: Envelope, { content, contentType, headers }: AmqpMessage, timeoutMs: number): Promise<Reply> {
    await this.gate.wait();
    const channel = this.channel.current;
    if (!channel) throw new AppError('unavailable', 'Not connected to the broker');
    const reply = await new Promise<Reply>((resolve, reject) => {
      const correlationId = randomUUID();
      const timer = setTimeout(
        () => settle({ error: new AppError('timeout', `No reply to ${command.type} within ${timeoutMs} ms`) }),
        timeoutMs,
      );
      const settle: WaitingRequest['settle'] = (outcome) => {
        clearTimeout(timer);
        this.waiting.delete(correlationId);
        if ('reply' in outcome) resolve(outcome.reply);
        else reject(outcome.error);
      };
      this.waiting.set(correlationId, { type: command.type, settle });
      try {
        const accepted = channel.publish(this.topology.commandExchange, command.type, content, {
          correlationId,
          replyTo: directReplyQueue,
          // A command whose caller has given up is not worth executing later.
          expiration: String(timeoutMs),
          mandatory: true,
          contentType,
          headers,
          messageId: command.id,
          type: command.type,
        });
        this.gate.after(accepted, channel);
      } catch {
        settle({ error: new AppError('unavailable', 'Not connected to the broker') });
      }
    });
    return reply;
  }

  failAll(error: AppError): void {
    for (const request of [...this.waiting.values()]) request.settle({ error });
  }

  private async setUp(channel: Channel): Promise<void> {
    await declareCommandExchange(channel, this.topology);
    channel.on('return', (message: Message) => this.onReturned(message));
    await channel.consume(directReplyQueue, (message) => this.onReply(message), { noAck: true });
  }

  private onReply(message: ConsumeMessage | null): void {
    if (!message) return;
    const request = this.waiting.get(String(message.properties.correlationId));
    if (!request) {
      this.logger.debug({ correlationId: message.properties.correlationId }, 'dropped a reply nobody waits for');
      return;
    }
    const { json, attachment } = replyOfMessage(message);
    request.settle({ reply: decodeReply(json, attachment) });
  }

  // mandatory: the broker hands back a command that no queue is bound for.
  private onReturned(message: Message): void {
    const request = this.waiting.get(String(message.properties.correlationId));
    request?.settle({ error: new AppError('unavailable', `No service handles ${request.type}`) });
  }
}
