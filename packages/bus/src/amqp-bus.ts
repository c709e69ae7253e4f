import type { Envelope, Reply } from '@formcast/contracts';
import { AppError, createLogger, type Logger } from '@formcast/platform';
import { AmqpConnection } from './amqp/amqp-connection';
import { defaultMaxMessageBytes, toAmqpMessage } from './amqp/amqp-envelope';
import { AmqpCommandRequester } from './amqp/command-requester';
import { AmqpCommandServer } from './amqp/command-server';
import { AmqpDeadLetters } from './amqp/dead-letter-queue';
import { AmqpEventConsumer } from './amqp/event-consumer';
import { RunningLimit } from './amqp/running-limit';
import { AmqpEventPublisher } from './amqp/event-publisher';
import type { QueueConsumer, QueueConsumerDeps } from './amqp/queue-consumer';
import { topologyFor, type Topology } from './amqp/topology';
import { BusInstrumentation } from './bus-instrumentation';
import { BusTracing } from './bus-tracing';
import { resolveBusOptions, type ResolvedBusOptions } from './bus-options';
import { encodeEnvelope } from './envelope-codec';
import { InFlight } from './in-flight';
import { OrganizationGates } from './organization-gate';
import type { Bus, BusOptions, CommandHandler, EventHandler, RequestOptions } from './port';
import { valueAndAttachmentOfReply, valueOfReply } from './reply-codec';

export interface AmqpBusOptions extends BusOptions {
  /** amqp://user:password@host:port/vhost (`?heartbeat=10` to notice a dead broker sooner). */
  url: string;
  logger?: Logger;
  /** Unacknowledged messages per consumer (default 32). */
  prefetch?: number;
  /**
   * Unacknowledged commands per service (default: `prefetch`). Above the commands one
   * organization may run at once, so another organization's command reaches the service past
   * a flood's waiting ones.
   */
  commandPrefetch?: number;
  /**
   * Events per service taken from the queue beyond `prefetch` only to wait in their
   * organization's line (fair service), so another organization's event that far behind one
   * organization's backlog is served without republishing the backlog (default 4096, BUS_EVENT_LOOK_AHEAD; none
   * when `eventsPerOrganization` is 0).
   */
  eventLookAhead?: number;
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

/** AmqpBusOptions.eventLookAhead's default. */
export const defaultEventLookAhead = 4096;

type State = 'new' | 'started' | 'closing' | 'closed';

/** The bus over RabbitMQ; see port.ts for the semantics and topology.ts for the names. */
export class AmqpBus implements Bus {
  private readonly options: ResolvedBusOptions;
  private readonly maxMessageBytes: number;
  private readonly topology: Topology;
  private readonly logger: Logger;
  private readonly connection: AmqpConnection;
  private readonly requester: AmqpCommandRequester;
  private readonly publisher: AmqpEventPublisher;
  private readonly deadLetterQueues: AmqpDeadLetters;
  private readonly commandServers = new Map<string, AmqpCommandServer>();
  private readonly eventConsumers = new Map<string, AmqpEventConsumer>();
  private readonly handlers = new InFlight();
  private readonly instrumentation = new BusInstrumentation((service) => this.deadLetterCount(service));
  private readonly tracing = new BusTracing('rabbitmq');
  private readonly consumerDeps: QueueConsumerDeps;
  private readonly commandPrefetch: number;
  private readonly commandGates: OrganizationGates;
  private readonly eventGates: OrganizationGates;
  private readonly eventLookAhead: number;
  /** Bindings and consumers being set up, so a request right after handleCommand finds them. */
  private readonly registrations = new InFlight();
  private state: State = 'new';
  private closing: Promise<void> | null = null;

  constructor(options: AmqpBusOptions) {
    this.options = resolveBusOptions(options);
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
    this.deadLetterQueues = new AmqpDeadLetters(() => this.connection.current, this.topology, this.publisher, this.logger);
    this.consumerDeps = { logger: this.logger, topology: this.topology, prefetch: options.prefetch ?? 32, inFlight: this.handlers };
    this.commandPrefetch = options.commandPrefetch ?? this.consumerDeps.prefetch;
    this.commandGates = new OrganizationGates(this.options.commandsPerOrganization);
    this.eventGates = new OrganizationGates(this.options.eventsPerOrganization);
    this.eventLookAhead = this.options.eventsPerOrganization > 0 ? (options.eventLookAhead ?? defaultEventLookAhead) : 0;
  }

  handleCommand(service: string, type: string, handler: CommandHandler): void {
    const gate = this.commandGates.of(service);
    const fair: CommandHandler = (command) => gate.run(command.orgId, () => handler(command));
    this.addHandler(this.commandServers, service, type, this.tracing.commandHandler(service, fair), () =>
      new AmqpCommandServer(service, { ...this.consumerDeps, prefetch: this.commandPrefetch }),
    );
  }

  subscribe(service: string, type: string, handler: EventHandler): void {
    this.addHandler(this.eventConsumers, service, type, this.instrumentation.eventHandler(service, type, this.tracing.eventHandler(service, handler)), () =>
      new AmqpEventConsumer(service, {
        ...this.consumerDeps,
        prefetch: this.consumerDeps.prefetch + this.eventLookAhead,
        running: new RunningLimit(this.consumerDeps.prefetch),
        options: this.options,
        publisher: this.publisher,
        gate: this.eventGates.of(service),
      }),
    );
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

  request<T = unknown>(command: Envelope, options: RequestOptions = {}): Promise<T> {
    return this.instrumentation.timeCommand(command.type, () => this.tracing.request(command, async (traced) => valueOfReply<T>(await this.sendCommand(traced, options))));
  }

  requestWithAttachment<T = unknown>(command: Envelope, options: RequestOptions = {}): Promise<{ value: T; attachment?: Buffer }> {
    return this.instrumentation.timeCommand(command.type, () =>
      this.tracing.request(command, async (traced) => valueAndAttachmentOfReply<T>(await this.sendCommand(traced, options))),
    );
  }

  private async sendCommand(command: Envelope, options: RequestOptions): Promise<Reply> {
    const message = toAmqpMessage(encodeEnvelope(command), this.maxMessageBytes);
    await this.registrations.settled();
    this.assertRunning();
    return this.requester.request(command, message, options.timeoutMs ?? this.options.defaultTimeoutMs);
  }

  publish(event: Envelope): Promise<void> {
    return this.tracing.publish(event, (traced) => this.publishNow(traced));
  }

  private async publishNow(event: Envelope): Promise<void> {
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

  deadLetters(service: string): Promise<Envelope[]> {
    return this.deadLetterQueues.read(service);
  }

  deadLetterCount(service: string): Promise<number | null> {
    return this.deadLetterQueues.count(service);
  }

  async replayDeadLetter(service: string, eventId: string): Promise<Envelope | null> {
    this.assertRunning();
    return this.deadLetterQueues.replay(service, eventId);
  }

  dropDeadLetter(service: string, eventId: string): Promise<Envelope | null> {
    return this.deadLetterQueues.drop(service, eventId);
  }

  private async stop(): Promise<void> {
    const wasStarted = this.state === 'started';
    this.state = 'closing';
    this.instrumentation.close();
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
  private addHandler<H>(
    consumers: Map<string, QueueConsumer<H>>,
    service: string,
    type: string,
    handler: H,
    newConsumer: () => QueueConsumer<H>,
  ): void {
    const known = consumers.get(service);
    const consumer = known ?? newConsumer();
    consumers.set(service, consumer);
    if (consumer.hasHandlerFor(type)) throw new Error(`${service} already handles ${type}`);
    const work = consumer.add(type, handler).then(async () => {
      if (!known && this.state === 'started') await this.connection.add(consumer.channel);
    });
    void this.registrations.track(
      work.catch((err: unknown) => this.logger.warn({ err, service, type }, 'setting up a registration failed; retried on reopen')),
    );
  }
}
