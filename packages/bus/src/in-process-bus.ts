import type { Envelope, Reply } from '@formcast/contracts';
import { AppError, createLogger, type Logger } from '@formcast/platform';
import { BusInstrumentation } from './bus-instrumentation';
import { BusTracing } from './bus-tracing';
import { delay, resolveBusOptions, retryDelayAfter, type ResolvedBusOptions } from './bus-options';
import { HandlerTable } from './handler-table';
import { InFlight } from './in-flight';
import { frozenEnvelope, frozenValue } from './in-process/frozen-message';
import { InProcessBroker, type CommandRoute } from './in-process/in-process-broker';
import type { InProcessEventQueue, QueuedEvent } from './in-process/in-process-event-queue';
import { logHandlerFailure, messageFields } from './log-fields';
import { OrganizationGates } from './organization-gate';
import type { Bus, BusOptions, CommandHandler, EventHandler, RequestOptions } from './port';
import { replyWithError, replyWithValue, valueAndAttachmentOfReply, valueOfReply } from './reply-codec';

export interface InProcessBusOptions extends BusOptions {
  /** Buses sharing a broker reach each other like processes sharing a RabbitMQ; default: a broker of its own. */
  broker?: InProcessBroker;
  logger?: Logger;
}

type State = 'new' | 'started' | 'closing' | 'closed';

/**
 * The bus of embedded mode. Behaves like the AMQP adapter: messages arrive as JSON would
 * deliver them, though frozen rather than copied (frozen-message.ts; an attachment as the
 * same Buffer), handlers run on a later turn of the event loop, failed events are retried with backoff and then
 * dead-lettered, replicas sharing a broker take turns. Nothing survives the process.
 */
export class InProcessBus implements Bus {
  private readonly broker: InProcessBroker;
  private readonly options: ResolvedBusOptions;
  private readonly logger: Logger;
  private readonly commands = new HandlerTable<CommandHandler>();
  private readonly events = new HandlerTable<EventHandler>();
  private readonly stopConsuming: Array<() => void> = [];
  private readonly handlers = new InFlight();
  private readonly instrumentation = new BusInstrumentation((service) => this.deadLetterCount(service));
  private readonly tracing = new BusTracing('in-process');
  private readonly waitingRequests = new Set<(error: AppError) => void>();
  private readonly commandGates: OrganizationGates;
  private readonly eventGates: OrganizationGates;
  private state: State = 'new';
  private closing: Promise<void> | null = null;

  constructor(options: InProcessBusOptions = {}) {
    this.broker = options.broker ?? new InProcessBroker();
    this.options = resolveBusOptions(options);
    this.logger = (options.logger ?? createLogger({ name: 'bus' })).child({ component: 'in-process-bus' });
    this.commandGates = new OrganizationGates(this.options.commandsPerOrganization);
    this.eventGates = new OrganizationGates(this.options.eventsPerOrganization);
  }

  handleCommand(service: string, type: string, handler: CommandHandler): void {
    const gate = this.commandGates.of(service);
    const traced = this.tracing.commandHandler(service, (command) => gate.run(command.orgId, () => handler(command)));
    this.commands.add(service, type, traced);
    if (this.state === 'started') this.serveCommand(service, type, traced);
  }

  subscribe(service: string, type: string, handler: EventHandler): void {
    const gate = this.eventGates.of(service);
    const fair: EventHandler = (event, delivery) => gate.run(event.orgId, () => handler(event, delivery));
    const isNewService = this.events.add(service, type, this.instrumentation.eventHandler(service, type, this.tracing.eventHandler(service, fair)));
    if (this.state === 'started') this.listen(service, [type], isNewService);
  }

  async start(): Promise<void> {
    if (this.state !== 'new') return;
    this.state = 'started';
    for (const service of this.commands.services()) {
      for (const type of this.commands.types(service)) this.serveCommand(service, type, this.commands.get(service, type)!);
    }
    for (const service of this.events.services()) this.listen(service, this.events.types(service), true);
  }

  request<T = unknown>(command: Envelope, options: RequestOptions = {}): Promise<T> {
    return this.instrumentation.timeCommand(command.type, () =>
      this.tracing.request(command, async (traced) => {
        return valueOfReply<T>(await this.sendCommand(traced, options));
      }),
    );
  }

  requestWithAttachment<T = unknown>(command: Envelope, options: RequestOptions = {}): Promise<{ value: T; attachment?: Buffer }> {
    return this.instrumentation.timeCommand(command.type, () =>
      this.tracing.request(command, async (traced) => {
        return valueAndAttachmentOfReply<T>(await this.sendCommand(traced, options));
      }),
    );
  }

  private async sendCommand(command: Envelope, options: RequestOptions): Promise<Reply> {
    const frozen = frozenEnvelope(command);
    if (this.state !== 'started') throw new AppError('unavailable', 'The bus is not running');
    const route = this.broker.routeFor(command.type);
    if (!route) throw new AppError('unavailable', `No service handles ${command.type}`);
    const timeoutMs = options.timeoutMs ?? this.options.defaultTimeoutMs;
    return this.awaitReply(route, frozen, timeoutMs);
  }

  publish(event: Envelope): Promise<void> {
    return this.tracing.publish(event, async (traced) => this.publishNow(traced));
  }

  private publishNow(event: Envelope): void {
    const frozen = frozenEnvelope(event);
    if (this.state !== 'started') throw new AppError('unavailable', 'The bus is not running');
    this.broker.routeEvent(frozen);
  }

  close(): Promise<void> {
    this.closing ??= this.stop();
    return this.closing;
  }

  isReady(): boolean {
    return this.state === 'started';
  }

  async deadLetters(service: string): Promise<Envelope[]> {
    return [...(this.broker.existingEventQueue(service)?.deadLetters() ?? [])];
  }

  async deadLetterCount(service: string): Promise<number | null> {
    return this.broker.existingEventQueue(service)?.deadLetters().length ?? null;
  }

  // In memory both steps happen at once: nothing can come between them.
  async replayDeadLetter(service: string, eventId: string): Promise<Envelope | null> {
    const queue = this.broker.existingEventQueue(service);
    const event = queue?.takeDeadLetter((letter) => letter.id === eventId);
    if (!queue || !event) return null;
    queue.enqueue({ event, attempt: 1 });
    this.logger.info({ service, eventId }, 'dead letter replayed');
    return event;
  }

  async dropDeadLetter(service: string, eventId: string): Promise<Envelope | null> {
    const event = this.broker.existingEventQueue(service)?.takeDeadLetter((letter) => letter.id === eventId);
    if (!event) return null;
    this.logger.info({ service, eventId }, 'dead letter dropped');
    return event;
  }

  private async stop(): Promise<void> {
    this.state = 'closing';
    this.instrumentation.close();
    for (const stop of this.stopConsuming.splice(0)) stop();
    await this.handlers.settled();
    for (const fail of [...this.waitingRequests]) fail(new AppError('unavailable', 'The bus closed before the reply came'));
    this.state = 'closed';
  }

  private serveCommand(service: string, type: string, handler: CommandHandler): void {
    const route: CommandRoute = (command) => this.handlers.track(this.runCommand(service, handler, command));
    this.stopConsuming.push(this.broker.serveCommand(type, route));
  }

  private async runCommand(service: string, handler: CommandHandler, command: Envelope): Promise<Reply> {
    if (this.state !== 'started') return frozenError(new AppError('unavailable', `${service} is stopping`));
    let reply: Reply;
    try {
      reply = replyWithValue(await handler(command));
    } catch (error) {
      logHandlerFailure(this.logger, error, { service, ...messageFields(command) }, 'command failed', 'debug');
      return frozenError(error);
    }
    try {
      return frozenReply(reply);
    } catch {
      return frozenError(new AppError('internal', 'The reply is not JSON-serializable'));
    }
  }

  // Resolves with the serialized reply; a reply that comes after the timeout is dropped.
  private awaitReply(route: CommandRoute, command: Envelope, timeoutMs: number): Promise<Reply> {
    return new Promise((resolve, reject) => {
      const settle = () => {
        clearTimeout(timer);
        return this.waitingRequests.delete(fail);
      };
      const fail = (error: AppError) => {
        if (settle()) reject(error);
      };
      const timer = setTimeout(
        () => fail(new AppError('timeout', `No reply to ${command.type} within ${timeoutMs} ms`)),
        timeoutMs,
      );
      this.waitingRequests.add(fail);
      // Never inside request(), yet in this turn of the event loop: a turn of a busy loop
      // (a flood's sockets) is what a push waits for most, and setImmediate added one (issue 25).
      queueMicrotask(() => {
        void route(command).then((reply) => {
          if (settle()) resolve(reply);
        });
      });
    });
  }

  private listen(service: string, types: string[], startConsuming: boolean): void {
    const queue = this.broker.eventQueue(service);
    for (const type of types) queue.bind(type);
    if (!startConsuming) return;
    this.stopConsuming.push(
      queue.consume((event) => void this.handlers.track(this.handleEvent(service, queue, event))),
    );
  }

  private async handleEvent(service: string, queue: InProcessEventQueue, event: QueuedEvent): Promise<void> {
    const envelope = event.event;
    const handler = this.events.get(service, envelope.type);
    if (!handler) {
      this.logger.warn({ service, type: envelope.type }, 'no handler for this event; dead-lettered');
      queue.deadLetter(envelope);
      return;
    }
    const fields = { service, attempt: event.attempt, ...messageFields(envelope) };
    try {
      await handler(envelope, { attempt: event.attempt, redelivered: false });
      return;
    } catch (error) {
      logHandlerFailure(this.logger, error, fields, 'event handler failed', 'warn');
    }
    if (event.attempt >= this.options.maxAttempts) {
      this.logger.error(fields, 'event dead-lettered after its last attempt');
      queue.deadLetter(envelope);
      return;
    }
    await delay(retryDelayAfter(event.attempt, this.options));
    queue.enqueue({ event: envelope, attempt: event.attempt + 1 });
  }
}

/** The handler's value frozen as JSON would deliver it (its attachment handed over as it is). */
function frozenReply(reply: Reply): Reply {
  if (!reply.ok) return reply;
  const value = frozenValue(reply.value, 'The reply');
  return reply.attachment ? { ok: true, value, attachment: reply.attachment } : { ok: true, value };
}

/** A failure as the requester receives it: an AppError keeps its code, anything else is `internal` (replyWithError). */
function frozenError(error: unknown): Reply {
  const reply = replyWithError(error);
  if (reply.ok) return reply;
  try {
    return { ok: false, error: frozenValue(reply.error, 'The error') as typeof reply.error };
  } catch {
    return { ok: false, error: Object.freeze({ code: 'internal' as const, message: 'The reply is not JSON-serializable' }) };
  }
}
