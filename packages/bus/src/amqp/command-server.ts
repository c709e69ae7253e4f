import type { Reply } from '@formcast/contracts';
import { eventLoopWorked, metricsOn } from '@formcast/metrics';
import { AppError, type Logger } from '@formcast/platform';
import type { Channel, ConsumeMessage } from 'amqplib';
import { envelopeOfMessage, replyAsAmqpMessage } from './amqp-envelope';
import { logHandlerFailure, messageFields } from '../log-fields';
import type { CommandHandler } from '../port';
import { encodeReply, replyWithError, replyWithValue } from '../reply-codec';
import { DrainGate } from './drain-gate';
import { QueueConsumer, type QueueConsumerDeps } from './queue-consumer';
import { ack } from './settle-message';

/**
 * Serves one service's command queue (competing consumers across replicas). The command is
 * acknowledged after its reply is sent, so a replica that dies mid-command leaves it to
 * another one; the message's expiration bounds how late that can happen.
 */
export class AmqpCommandServer extends QueueConsumer<CommandHandler> {
  private readonly gate = new DrainGate();

  constructor(service: string, deps: QueueConsumerDeps) {
    super(service, deps, 'command');
  }

  protected override async handle(channel: Channel, message: ConsumeMessage): Promise<void> {
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
    if (metricsOn()) eventLoopWorked();
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
