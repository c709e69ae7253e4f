/**
 * The services that subscribe to events, so have an event queue and a dead-letter queue
 * (RabbitMQ: `<prefix>.<service>.events.dead-letter`): the ones `GET /admin/dead_letters`
 * shows. Another service's queue is reached by naming it.
 */
export const servicesWithEventQueues = ['gateway', 'push', 'notifier', 'delivery'] as const;

/** A dead-letter queue and how many messages wait in it. */
export interface DeadLetterQueueView {
  queue: string;
  depth: number;
}

/** A dead-lettered event as the admin API shows it; an attachment's bytes are only counted. */
export interface DeadLetterView {
  id: string;
  type: string;
  occurred_at: string;
  organization_id: number | null;
  request_id: string;
  payload: unknown;
  attachment_bytes: number | null;
}
