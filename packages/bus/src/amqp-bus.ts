import type { Envelope, Reply } from '@formcast/contracts';
import { AppError, createLogger, type Logger } from '@formcast/platform';
import { AmqpConnection } from './amqp/amqp-connection';
import { defaultMaxMessageBytes, toAmqpMessage } from './amqp/amqp-envelope';
import { AmqpCommandRequester } from './amqp/command-requester';
import { AmqpCommandServer } from './amqp/command-server';
import { readDeadLetters } from './amqp/dead-letter-reader';
import type { ConnectionChannel } from './amqp/managed-channel';
import { AmqpEventConsumer } from './amqp/event-consumer';
import { AmqpEventPublisher } from './amqp/event-publisher';
import { topologyFor, type Topology } from './amqp/topology';
import { resolveBusOptions, type ResolvedBusOptions } from './bus-options';
import { encodeEnvelope } from './envelope-codec';
import { InFlight } from './in-flight';
import type { Bus, BusOptions, CommandHandler, EventHandler, RequestOptions } from './port';
import { valueAndAttachmentOfReply, valueOfReply } from './reply-codec';

export interface AmqpBusOptions extends BusOptions {
  /** amqp://user:password@host:port/vhost (`?heartbeat=10` to notice a dead broker sooner). */
  url: string;
  logger?: Logger;
  /** Unacknowledged messages per consumer (default 32). */
  prefetch?: number;
  /** Shown by RabbitMQ for this connection, e.g. the service and pod name. */
  connectionName?: string;
  /** Attempts at the first connection before start() fails (default 10, about 25 s). */
  connectRetries?: number;
  /** The first part of every exchange and queue name (default `formcast`); isolates systems sharing a broker. */
  prefix?: string;
  /**
   * The largest message sent (the broker's `max_message_size`; default 128 MiB, RabbitMQ 3's
   * default). Larger ones are refused with too_large: the broker would drop the connection.
   */
  maxMessageBytes?: number;
}

type State = 'new' | 'started' | 'closing' | 'closed';

/** The bus over RabbitMQ; see port.ts for the semantics and topology.ts for the names. */
export class AmqpBus implements Bus {
  private readonly options: ResolvedBusOptions;
  private readonly prefetch: number;
  private readonly maxMessageBytes: number;
  private readonly topology: Topology;
  private readonly logger: Logger;
  private readonly connection: AmqpConnection;
  private readonly requester: AmqpCommandRequester;
  private readonly publisher: AmqpEventPublisher;
  private readonly commandServers = new Map<string, AmqpCommandServer>();
  private readonly eventConsumers = new Map<string, AmqpEventConsumer>();
  private readonly handlers = new InFlight();
  /** Bindings and consumers being set up, so a request right after handleCommand finds them. */
  private readonly registrations = new InFlight();
  private state: State = 'new';
  private closing: Promise<void> | null = null;

  constructor(options: AmqpBusOptions) {
    this.options = resolveBusOptions(options);
    this.prefetch = options.prefetch ?? 32;
    this.maxMessageBytes = options.maxMessageBytes ?? defaultMaxMessageBytes;
    this.topology = topologyFor(options.prefix);
    this.logger = (options.logger ?? createLogger({ name: 'bus' })).child({ component: 'amqp-bus' });
    this.connection = new AmqpConnection({
      url: options.url,
      logger: this.logger,
      connectionName: options.connectionName,
      connectRetries: options.connectRetries,
    });
    this.requester = new AmqpCommandRequester(this.logger, this.topology);
    this.publisher = new AmqpEventPublisher(this.logger, this.topology);
  }

  handleCommand(service: string, type: string, handler: CommandHandler): void {
    let server = this.commandServers.get(service);
    const isNewService = !server;
    server ??= new AmqpCommandServer(service, {
      logger: this.logger,
      topology: this.topology,
      prefetch: this.prefetch,
      inFlight: this.handlers,
    });
    this.commandServers.set(service, server);
    if (server.hasHandlerFor(type)) throw new Error(`${service} already handles ${type}`);
    this.register(server.add(type, handler), isNewService ? server.channel : null, { service, type });
  }

  subscribe(service: string, type: string, handler: EventHandler): void {
    let consumer = this.eventConsumers.get(service);
    const isNewService = !consumer;
    consumer ??= new AmqpEventConsumer(service, {
      logger: this.logger,
      topology: this.topology,
      prefetch: this.prefetch,
      options: this.options,
      inFlight: this.handlers,
      publisher: this.publisher,
    });
    this.eventConsumers.set(service, consumer);
    if (consumer.hasHandlerFor(type)) throw new Error(`${service} already handles ${type}`);
    this.register(consumer.add(type, handler), isNewService ? consumer.channel : null, { service, type });
  }

  async start(): Promise<void> {
    if (this.state !== 'new') return;
    this.state = 'started';
    const channels = [
      this.requester.channel,
      this.publisher.channel,
      ...[...this.commandServers.values()].map((server) => server.channel),
      ...[...this.eventConsumers.values()].map((consumer) => consumer.channel),
    ];
    for (const channel of channels) await this.connection.add(channel);
    try {
      await this.connection.open();
    } catch (err) {
      this.logger.error({ err }, 'could not connect to the broker');
      throw new AppError('unavailable', 'Could not connect to the broker');
    }
  }

  async request<T = unknown>(command: Envelope, options: RequestOptions = {}): Promise<T> {
    return valueOfReply<T>(await this.sendCommand(command, options));
  }

  async requestWithAttachment<T = unknown>(command: Envelope, options: RequestOptions = {}): Promise<{ value: T; attachment?: Buffer }> {
    return valueAndAttachmentOfReply<T>(await this.sendCommand(command, options));
  }

  private async sendCommand(command: Envelope, options: RequestOptions): Promise<Reply> {
    const message = toAmqpMessage(encodeEnvelope(command), this.maxMessageBytes);
    await this.registrations.settled();
    this.assertRunning();
    return this.requester.request(command, message, options.timeoutMs ?? this.options.defaultTimeoutMs);
  }

  async publish(event: Envelope): Promise<void> {
    const message = toAmqpMessage(encodeEnvelope(event), this.maxMessageBytes);
    await this.registrations.settled();
    this.assertRunning();
    await this.publisher.publishEvent(event, message);
  }

  close(): Promise<void> {
    this.closing ??= this.stop();
    return this.closing;
  }

  isReady(): boolean {
    return this.state === 'started' && this.connection.isOpen && this.connection.allChannelsOpen;
  }

  async deadLetters(service: string): Promise<Envelope[]> {
    const model = this.connection.current;
    if (!model) throw new AppError('unavailable', 'Not connected to the broker');
    return readDeadLetters(model, this.topology.deadLetterQueue(service), this.logger);
  }

  private async stop(): Promise<void> {
    const wasStarted = this.state === 'started';
    this.state = 'closing';
    if (wasStarted) {
      const consumers = [...this.commandServers.values(), ...this.eventConsumers.values()];
      await Promise.all(consumers.map((consumer) => consumer.stopConsuming()));
      await this.handlers.settled();
      this.requester.failAll(new AppError('unavailable', 'The bus closed before the reply came'));
      await this.connection.close();
    }
    this.state = 'closed';
  }

  private assertRunning(): void {
    if (this.state !== 'started') throw new AppError('unavailable', 'The bus is not running');
  }

  // A new service's channel joins the connection; a new type on a known one is bound by add().
  private register(
    adding: Promise<void>,
    newChannel: ConnectionChannel | null,
    fields: { service: string; type: string },
  ): void {
    const work = adding.then(async () => {
      if (newChannel && this.state === 'started') await this.connection.add(newChannel);
    });
    void this.registrations.track(
      work.catch((err: unknown) => this.logger.warn({ err, ...fields }, 'setting up a registration failed; retried on reopen')),
    );
  }
}
