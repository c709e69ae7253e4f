import { handlersByName, type EventHandler } from '@formcast/bus';
import { deliveryCommands as commands, directoryEvents, submissionEvents } from '@formcast/contracts';
import { formDeleted } from './events/form-deleted';
import { submissionReceived } from './events/submission-received';
import type { DeliveryDeps } from './handlers/deps';
import { createDestination } from './handlers/create-destination';
import { deleteDestination } from './handlers/delete-destination';
import { getDeliveryDocument } from './handlers/get-delivery-document';
import { getDestination } from './handlers/get-destination';
import { listDeliveries } from './handlers/list-deliveries';
import { performanceMetrics } from './handlers/performance-metrics';
import { listDestinations } from './handlers/list-destinations';
import { redeliver } from './handlers/redeliver';
import { rotateSecret } from './handlers/rotate-secret';
import { updateDestination } from './handlers/update-destination';

/** The handler of each of the delivery service's commands. */
export const commandHandlers = handlersByName<typeof commands, DeliveryDeps>(commands, {
  listDestinations,
  getDestination,
  createDestination,
  updateDestination,
  deleteDestination,
  rotateDestinationSecret: rotateSecret,
  listDeliveries,
  redeliver,
  getDeliveryDocument,
  performanceMetrics,
});

/** The creates that answer once per Idempotency-Key. */
export const idempotentCommands = [commands.createDestination];

/** Submissions as push announces them, and the end of a deleted form's destinations. */
export const eventHandlers: Record<string, (deps: DeliveryDeps) => EventHandler> = {
  [submissionEvents.submissionReceived]: submissionReceived,
  [directoryEvents.formDeleted]: formDeleted,
};
