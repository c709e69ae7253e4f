import type { Envelope } from '@formcast/contracts';

/** One event as it waits in a service's queue: the frozen envelope and which attempt is next. */
export interface QueuedEvent {
  event: Envelope;
  attempt: number;
}

export type EventConsumer = (event: QueuedEvent) => void;

/**
 * A service's event queue inside one process: what `formcast.<service>.events` is on
 * RabbitMQ. It outlives the buses consuming it, so events published while no replica is
 * consuming wait for the next one; its consumers (replicas) take turns.
 */
export class InProcessEventQueue {
  private readonly bindings = new Set<string>();
  private readonly waiting: QueuedEvent[] = [];
  private readonly consumers: EventConsumer[] = [];
  private readonly deadLettered: Envelope[] = [];
  private nextConsumer = 0;
  private dispatchScheduled = false;

  bind(type: string): void {
    this.bindings.add(type);
  }

  isBoundTo(type: string): boolean {
    return this.bindings.has(type);
  }

  enqueue(event: QueuedEvent): void {
    this.waiting.push(event);
    this.scheduleDispatch();
  }

  /** Starts delivering to `consumer`; returns the function that stops it. */
  consume(consumer: EventConsumer): () => void {
    this.consumers.push(consumer);
    this.scheduleDispatch();
    return () => {
      const index = this.consumers.indexOf(consumer);
      if (index >= 0) this.consumers.splice(index, 1);
    };
  }

  deadLetter(event: Envelope): void {
    this.deadLettered.push(event);
  }

  deadLetters(): readonly Envelope[] {
    return this.deadLettered;
  }

  /** Removes and returns the first dead letter `matches` picks, if any. */
  takeDeadLetter(matches: (event: Envelope) => boolean): Envelope | undefined {
    const index = this.deadLettered.findIndex(matches);
    return index < 0 ? undefined : this.deadLettered.splice(index, 1)[0];
  }

  // Always on a later turn of the event loop, so a handler never runs inside publish().
  private scheduleDispatch(): void {
    if (this.dispatchScheduled) return;
    this.dispatchScheduled = true;
    setImmediate(() => {
      this.dispatchScheduled = false;
      this.dispatch();
    });
  }

  private dispatch(): void {
    while (this.waiting.length > 0 && this.consumers.length > 0) {
      const event = this.waiting.shift()!;
      const consumer = this.consumers[this.nextConsumer++ % this.consumers.length]!;
      consumer(event);
    }
  }
}
