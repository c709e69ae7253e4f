import type { RequestHandler } from 'express';
import type { Bus } from '@formcast/bus';
import { servicesWithEventQueues, type DeadLetterQueueView, type DeadLetterView, type Envelope } from '@formcast/contracts';
import { AppError } from '@formcast/platform';

/** What the dead-letter routes need of the bus. */
export type DeadLetterAdmin = Pick<Bus, 'deadLetters' | 'deadLetterCount' | 'replayDeadLetter' | 'dropDeadLetter'>;

const queueName = /^[a-z][a-z0-9_-]{0,62}$/;
const maxEventIdLength = 200;

/** The dead-letter queues (one per service with an event queue) and their depth. */
export const listDeadLetterQueues = (deadLetters: DeadLetterAdmin): RequestHandler => async (_req, res) => {
  const queues: DeadLetterQueueView[] = [];
  for (const queue of servicesWithEventQueues) {
    const depth = await deadLetters.deadLetterCount(queue);
    if (depth !== null) queues.push({ queue, depth });
  }
  res.json({ dead_letter_queues: queues });
};

/** One queue's letters. */
export const listDeadLetters = (deadLetters: DeadLetterAdmin): RequestHandler => async (req, res) => {
  const queue = await existingQueue(deadLetters, req.params['queue']);
  const letters = await deadLetters.deadLetters(queue);
  res.json({ queue, depth: letters.length, dead_letters: letters.map(toDeadLetterView) });
};

/** What is done with one letter: shown, replayed (back to that service alone, then removed) or dropped. */
const letterActions = {
  dead_letter: (deadLetters: DeadLetterAdmin, queue: string, eventId: string) =>
    deadLetters.deadLetters(queue).then((letters) => letters.find((envelope) => envelope.id === eventId)),
  replayed: (deadLetters: DeadLetterAdmin, queue: string, eventId: string) => deadLetters.replayDeadLetter(queue, eventId),
  dropped: (deadLetters: DeadLetterAdmin, queue: string, eventId: string) => deadLetters.dropDeadLetter(queue, eventId),
};

/** One letter, by its queue and event id: `{"<action>": the letter}`, or 404. */
export const oneDeadLetter =
  (action: keyof typeof letterActions) =>
  (deadLetters: DeadLetterAdmin): RequestHandler =>
  async (req, res) => {
    const queue = await existingQueue(deadLetters, req.params['queue']);
    const eventId = deadLetterId(req.params['eventId'], queue);
    const letter = await letterActions[action](deadLetters, queue, eventId);
    if (!letter) throw deadLetterNotFound(queue, eventId);
    res.json({ [action]: toDeadLetterView(letter) });
  };

async function existingQueue(deadLetters: DeadLetterAdmin, value: unknown): Promise<string> {
  if (typeof value === 'string' && queueName.test(value) && (await deadLetters.deadLetterCount(value)) !== null) return value;
  throw new AppError('not_found', `No dead-letter queue ${String(value)}`);
}

function deadLetterId(value: unknown, queue: string): string {
  if (typeof value === 'string' && value.length > 0 && value.length <= maxEventIdLength) return value;
  throw deadLetterNotFound(queue, String(value).slice(0, maxEventIdLength));
}

function deadLetterNotFound(queue: string, eventId: string): AppError {
  return new AppError('not_found', `No dead letter ${eventId} in ${queue}`);
}

export function toDeadLetterView(envelope: Envelope): DeadLetterView {
  return {
    id: envelope.id,
    type: envelope.type,
    occurred_at: envelope.occurredAt,
    organization_id: envelope.orgId,
    request_id: envelope.requestId,
    payload: envelope.payload,
    attachment_bytes: envelope.attachment ? envelope.attachment.length : null,
  };
}
