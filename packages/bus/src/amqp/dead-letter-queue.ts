import type { Envelope } from '@formcast/contracts';
import { AppError, type Logger } from '@formcast/platform';
import type { Channel, ChannelModel, GetMessage, MessagePropertyHeaders } from 'amqplib';
import { envelopeOfMessage } from './amqp-envelope';
import type { AmqpEventPublisher } from './event-publisher';
import { attemptsHeader, type Topology } from './topology';

const notFound = 404;

/**
 * A service's dead-letter queue: read, counted, and one message replayed or dropped. Every
 * operation works on a channel of its own and fetches messages unacknowledged; closing
 * that channel puts back all it did not acknowledge, in their places.
 */
export class AmqpDeadLetters {
  constructor(
    private readonly connection: () => ChannelModel | null,
    private readonly topology: Topology,
    private readonly publisher: AmqpEventPublisher,
    private readonly logger: Logger,
  ) {}

  /** Every envelope in the queue, oldest first, removing nothing. */
  read(service: string): Promise<Envelope[]> {
    const queue = this.topology.deadLetterQueue(service);
    return this.onOwnChannel(async (channel) => {
      const envelopes: Envelope[] = [];
      for (let message = await channel.get(queue, { noAck: false }); message; message = await channel.get(queue, { noAck: false })) {
        const envelope = envelopeOfMessage(message);
        if (envelope) envelopes.push(envelope);
        else this.logger.warn({ queue }, 'a dead letter that is not an envelope was skipped');
      }
      return envelopes;
    }, []);
  }

  /** Null when there is no such queue. */
  count(service: string): Promise<number | null> {
    const queue = this.topology.deadLetterQueue(service);
    return this.onOwnChannel<number | null>(async (channel) => (await channel.checkQueue(queue)).messageCount, null);
  }

  /**
   * Publishes the dead letter back to the service's event queue (confirmed, as a first
   * attempt), then acknowledges it: a process dying in between leaves it in the dead-letter
   * queue, and the event perhaps delivered twice, never lost.
   */
  replay(service: string, eventId: string): Promise<Envelope | null> {
    const eventQueue = this.topology.eventQueue(service);
    return this.take(service, eventId, async (message) => {
      await this.requireQueue(eventQueue);
      await this.publisher.sendToQueue(eventQueue, message.content, {
        contentType: message.properties.contentType,
        messageId: message.properties.messageId,
        type: message.properties.type,
        headers: headersForReplay(message.properties.headers),
      });
      this.logger.info({ service, eventId }, 'dead letter replayed');
    });
  }

  drop(service: string, eventId: string): Promise<Envelope | null> {
    return this.take(service, eventId, async () => {
      this.logger.info({ service, eventId }, 'dead letter dropped');
    });
  }

  // Fetches until the message of `eventId`, does `act` with it, then acknowledges it (removed).
  private take(service: string, eventId: string, act: (message: GetMessage) => Promise<void>): Promise<Envelope | null> {
    const queue = this.topology.deadLetterQueue(service);
    return this.onOwnChannel(async (channel) => {
      for (let message = await channel.get(queue, { noAck: false }); message; message = await channel.get(queue, { noAck: false })) {
        const envelope = envelopeOfMessage(message);
        if (envelope?.id !== eventId) continue;
        await act(message);
        channel.ack(message);
        return envelope;
      }
      return null;
    }, null);
  }

  // A replay to a queue that is gone would be dropped by the broker without a word.
  private async requireQueue(queue: string): Promise<void> {
    const found = await this.onOwnChannel(async (channel) => (await channel.checkQueue(queue), true), false);
    if (!found) throw new AppError('unavailable', `The event queue ${queue} does not exist; nothing was replayed`);
  }

  /** Runs `work` on a new channel, closed after; a missing queue answers `whenMissing`. */
  private async onOwnChannel<T>(work: (channel: Channel) => Promise<T>, whenMissing: T): Promise<T> {
    const model = this.connection();
    if (!model) throw new AppError('unavailable', 'Not connected to the broker');
    const channel = await model.createChannel().catch(() => {
      throw new AppError('unavailable', 'Could not open a channel to the broker');
    });
    channel.on('error', () => undefined); // a missing queue closes this channel; handled below
    try {
      return await work(channel);
    } catch (error) {
      if ((error as { code?: unknown }).code === notFound) return whenMissing;
      if (error instanceof AppError) throw error;
      throw new AppError('unavailable', 'Could not reach the dead-letter queue');
    } finally {
      await channel.close().catch(() => undefined);
    }
  }
}

/** The headers a replayed event goes out with: its own, without the broker's death records or the retry count. */
function headersForReplay(headers: MessagePropertyHeaders | undefined): Record<string, unknown> {
  const kept: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(headers ?? {})) {
    if (name === attemptsHeader || name === 'x-death' || name.startsWith('x-first-death-') || name.startsWith('x-last-death-')) continue;
    kept[name] = value;
  }
  return kept;
}
