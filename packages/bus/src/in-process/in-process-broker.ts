import type { Envelope, Reply } from '@formcast/contracts';
import { InProcessEventQueue } from './in-process-event-queue';

/** Serves one frozen command (see frozen-message.ts) and answers with a frozen reply; never rejects. */
export type CommandRoute = (command: Envelope) => Promise<Reply>;

/**
 * What RabbitMQ is to the AMQP adapter, inside one process: command routes (replicas of a
 * service take turns) and per-service event queues. Buses that share a broker behave like
 * processes sharing a RabbitMQ; a bus made without one gets its own.
 */
export class InProcessBroker {
  private readonly commandRoutes = new Map<string, CommandRoute[]>();
  private readonly turns = new Map<string, number>();
  private readonly eventQueues = new Map<string, InProcessEventQueue>();

  /** Routes commands of `type` to `route`; returns the function that stops it. */
  serveCommand(type: string, route: CommandRoute): () => void {
    const routes = this.commandRoutes.get(type) ?? [];
    routes.push(route);
    this.commandRoutes.set(type, routes);
    return () => {
      const index = routes.indexOf(route);
      if (index >= 0) routes.splice(index, 1);
    };
  }

  /** The next replica's route for `type`, or undefined when nothing serves it. */
  routeFor(type: string): CommandRoute | undefined {
    const routes = this.commandRoutes.get(type);
    if (!routes || routes.length === 0) return undefined;
    const turn = this.turns.get(type) ?? 0;
    this.turns.set(type, turn + 1);
    return routes[turn % routes.length];
  }

  eventQueue(service: string): InProcessEventQueue {
    let queue = this.eventQueues.get(service);
    if (!queue) {
      queue = new InProcessEventQueue();
      this.eventQueues.set(service, queue);
    }
    return queue;
  }

  existingEventQueue(service: string): InProcessEventQueue | undefined {
    return this.eventQueues.get(service);
  }

  /** Puts the event (frozen: one for all) in every service queue bound to its type. */
  routeEvent(event: Envelope): void {
    for (const queue of this.eventQueues.values()) {
      if (queue.isBoundTo(event.type)) queue.enqueue({ event, attempt: 1 });
    }
  }
}
