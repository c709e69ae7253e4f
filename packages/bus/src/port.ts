import type { Envelope } from '@formcast/contracts';

/** Serves one command; its return value is the reply. Throw an AppError to reply with an error. */
export type CommandHandler = (command: Envelope) => Promise<unknown>;

/** How an event reached its handler: which attempt this is, and whether the broker delivered it before. */
export interface EventDelivery {
  /** 1 for the first attempt; retries after a failure count up. */
  attempt: number;
  /** The broker delivered this message before (a consumer went away without acknowledging it). */
  redelivered: boolean;
}

/** Handles one event; resolves when its work is done (only then is the event acknowledged). */
export type EventHandler = (event: Envelope, delivery?: EventDelivery) => Promise<void>;

export interface RequestOptions {
  /** How long to wait for the reply; past it the request rejects with AppError('timeout'). */
  timeoutMs?: number;
}

/**
 * The bus port. Commands are request/reply: one queue per serving service, shared by its
 * replicas as competing consumers, routed by command name. Events are publish/subscribe:
 * each subscribing service has its own durable queue (and a dead-letter queue), routed by
 * event name; an event is acknowledged after its handler finishes, retried when the
 * handler throws, and dead-lettered after `maxAttempts`. Delivery is at-least-once.
 *
 * A message, and a reply's value, arrive as JSON carries them (plain data: a Date as its
 * string, no `undefined` keys). What a sender hands over it no longer changes, and what a
 * handler receives it does not change: in one process both are the same frozen objects
 * (a change throws), between processes copies.
 */
export interface Bus {
  /** Serve `type` as part of `service`'s command queue. */
  handleCommand(service: string, type: string, handler: CommandHandler): void;
  /**
   * Send a command and wait for its reply's value. Rejects with the AppError the handler
   * threw, AppError('timeout') past the timeout, or AppError('unavailable') when the command
   * cannot be sent. A reply arriving after the timeout is dropped.
   */
  request<T = unknown>(command: Envelope, options?: RequestOptions): Promise<T>;
  /**
   * As `request`, with the bytes a handler replied beside its value (`withAttachment`, e.g.
   * a file to download), handed over as they came, never encoded.
   */
  requestWithAttachment<T = unknown>(command: Envelope, options?: RequestOptions): Promise<{ value: T; attachment?: Buffer }>;
  /** Publish an event; resolves once the broker has it (publisher confirm). */
  publish(event: Envelope): Promise<void>;
  /** Deliver events of `type` to `service`'s event queue, handled by `handler`. */
  subscribe(service: string, type: string, handler: EventHandler): void;
  /** Connect and start consuming what was registered (registering later also works). */
  start(): Promise<void>;
  /** Stop consuming, wait for in-flight handlers, disconnect. */
  close(): Promise<void>;
  /** True while connected and consuming (readiness). */
  isReady(): boolean;
  /** The events dead-lettered for `service`, oldest first, without removing them. */
  deadLetters(service: string): Promise<Envelope[]>;
  /** How many messages wait in `service`'s dead-letter queue; null when it has none (it never subscribed). */
  deadLetterCount(service: string): Promise<number | null>;
  /**
   * Sends the dead letter with envelope id `eventId` back to `service`'s event queue as a
   * first attempt, then removes it from the dead-letter queue; null when there is none. Sent
   * before removed: a replay cut short leaves the dead letter (and perhaps the event too, a
   * duplicate consumers drop by envelope id), never neither.
   */
  replayDeadLetter(service: string, eventId: string): Promise<Envelope | null>;
  /** Removes the dead letter with envelope id `eventId` from `service`'s dead-letter queue; null when there is none. */
  dropDeadLetter(service: string, eventId: string): Promise<Envelope | null>;
}

export interface BusOptions {
  /** Attempts per event before it is dead-lettered (default 5). */
  maxAttempts?: number;
  /** Delay before the first retry of a failed event, doubled for each next one (default 100 ms). */
  retryDelayMs?: number;
  /** Default command timeout (default 10 s). */
  defaultTimeoutMs?: number;
  /**
   * Fair service: commands of one organization a service (one process) runs at once; more
   * of the same organization wait for one of its own to end, while other organizations'
   * start at once (default 64; 0: no cap).
   */
  commandsPerOrganization?: number;
  /**
   * The same for the events a service consumes (default 128; 0: no cap). Over RabbitMQ, an
   * event of an organization with this many handled and a quarter as many waiting goes (at most three times) to the
   * back of the queue, so a backlog of one organization does not hold up another's newer events.
   */
  eventsPerOrganization?: number;
}
