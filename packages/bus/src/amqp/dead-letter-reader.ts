import type { Envelope } from '@formcast/contracts';
import { AppError, type Logger } from '@formcast/platform';
import type { ChannelModel } from 'amqplib';
import { envelopeOfMessage } from './amqp-envelope';

const notFound = 404;

/**
 * Reads a dead-letter queue without removing anything: every message is fetched
 * unacknowledged on a channel of its own, and closing that channel puts them all back.
 */
export async function readDeadLetters(
  model: ChannelModel,
  queue: string,
  logger: Logger,
): Promise<Envelope[]> {
  const channel = await model.createChannel();
  channel.on('error', () => undefined); // a missing queue closes this channel; handled below
  const envelopes: Envelope[] = [];
  try {
    for (;;) {
      const message = await channel.get(queue, { noAck: false });
      if (!message) break;
      const envelope = envelopeOfMessage(message);
      if (envelope) envelopes.push(envelope);
      else logger.warn({ queue }, 'a dead letter that is not an envelope was skipped');
    }
    return envelopes;
  } catch (error) {
    if ((error as { code?: unknown }).code === notFound) return [];
    throw new AppError('unavailable', 'Could not read the dead-letter queue');
  } finally {
    await channel.close().catch(() => undefined);
  }
}
