import { Router } from 'express';
import type { Bus } from '@formcast/bus';
import { servicesWithEventQueues, type DeadLetterQueueView, type DeadLetterView, type Envelope } from '@formcast/contracts';
import { AppError } from '@formcast/platform';

/** What the dead-letter routes need of the bus. */
export type DeadLetterAdmin = Pick<Bus, 'deadLetters' | 'deadLetterCount' | 'replayDeadLetter' | 'dropDeadLetter'>;

const queueName = /^[a-z][a-z0-9_-]{0,62}$/;
const maxEventIdLength = 200;

/**
 * Dead letters by queue (a service's name): the queues with their depth, one queue's
 * letters, one letter; replay (back to that service alone, then removed) and drop.
 */
export function deadLetterRoutes(deadLetters: DeadLetterAdmin): Router {
  const router = Router();

  router.get('/dead_letters', async (_req, res) => {
    const queues: DeadLetterQueueView[] = [];
    for (const queue of servicesWithEventQueues) {
      const depth = await deadLetters.deadLetterCount(queue);
      if (depth !== null) queues.push({ queue, depth });
    }
    res.json({ dead_letter_queues: queues });
  });

  router.get('/dead_letters/:queue', async (req, res) => {
    const queue = await existingQueue(deadLetters, req.params['queue']);
    const letters = await deadLetters.deadLetters(queue);
    res.json({ queue, depth: letters.length, dead_letters: letters.map(toDeadLetterView) });
  });

  router.get('/dead_letters/:queue/:eventId', async (req, res) => {
    const queue = await existingQueue(deadLetters, req.params['queue']);
    const eventId = deadLetterId(req.params['eventId'], queue);
    const letter = (await deadLetters.deadLetters(queue)).find((envelope) => envelope.id === eventId);
    if (!letter) throw deadLetterNotFound(queue, eventId);
    res.json({ dead_letter: toDeadLetterView(letter) });
  });

  router.post('/dead_letters/:queue/:eventId/replay', async (req, res) => {
    const queue = await existingQueue(deadLetters, req.params['queue']);
    const eventId = deadLetterId(req.params['eventId'], queue);
    const letter = await deadLetters.replayDeadLetter(queue, eventId);
    if (!letter) throw deadLetterNotFound(queue, eventId);
    res.json({ replayed: toDeadLetterView(letter) });
  });

  router.delete('/dead_letters/:queue/:eventId', async (req, res) => {
    const queue = await existingQueue(deadLetters, req.params['queue']);
    const eventId = deadLetterId(req.params['eventId'], queue);
    const letter = await deadLetters.dropDeadLetter(queue, eventId);
    if (!letter) throw deadLetterNotFound(queue, eventId);
    res.json({ dropped: toDeadLetterView(letter) });
  });

  return router;
}

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
