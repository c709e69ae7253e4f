import type {
  DeliveryAttemptView,
  DeliveryListView,
  DeliveryView,
  DestinationDetailView,
  DestinationView,
  DestinationWithSecretView,
} from '@formcast/contracts';
import type { DeliveryAttempt, DeliveryWithAttempts, Destination } from './records';

export function toDestinationView(destination: Destination): DestinationView {
  return {
    id: destination.id,
    description: destination.description,
    active: destination.active,
    format_type: destination.format,
    format_id: destination.id,
    transport_type: destination.transport.type,
    transport_id: destination.id,
    binary_transport_type: null,
    binary_transport_id: null,
    created_at: destination.createdAt,
    updated_at: destination.updatedAt,
    deactivated_reason: destination.deactivatedReason,
    deactivated_at: destination.deactivatedAt,
  };
}

export function toDestinationDetailView(destination: Destination): DestinationDetailView {
  return {
    ...toDestinationView(destination),
    [destination.format]: {},
    [destination.transport.type]: destination.transport.parameters,
  };
}

/** Create and rotate: the only answers that show the secret. */
export function toDestinationWithSecretView(destination: Destination): DestinationWithSecretView {
  const previous = destination.secrets.retired[0];
  return {
    ...toDestinationDetailView(destination),
    secret: destination.secrets.current,
    previous_secret_expires_at: previous ? previous.expiresAt : null,
  };
}

function toAttemptView(attempt: DeliveryAttempt): DeliveryAttemptView {
  return {
    attempted_at: attempt.attemptedAt,
    status_code: attempt.statusCode,
    duration_ms: attempt.durationMs,
    response_body: attempt.responseBody,
    error: attempt.error,
  };
}

export function toDeliveryView(delivery: DeliveryWithAttempts): DeliveryView {
  return {
    id: delivery.id,
    destination_id: delivery.destinationId,
    submission_id: delivery.submissionId,
    webhook_id: delivery.webhookId,
    status: delivery.status,
    next_attempt_at: delivery.nextAttemptAt === null ? null : new Date(delivery.nextAttemptAt).toISOString(),
    created_at: delivery.createdAt,
    updated_at: delivery.updatedAt,
    attempts: delivery.attempts.map(toAttemptView),
  };
}

export function toDeliveryListView(page: { total: number; deliveries: DeliveryWithAttempts[] }, currentPage: number, perPage: number): DeliveryListView {
  return {
    per_page: perPage,
    current_page: currentPage,
    total_pages: Math.ceil(page.total / perPage),
    total_count: page.total,
    deliveries: page.deliveries.map(toDeliveryView),
  };
}
