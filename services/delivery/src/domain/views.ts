import type {
  DeliveryAttemptView,
  DeliveryListView,
  DeliveryView,
  DestinationDetailView,
  DestinationView,
  DestinationWithSecretView,
} from '@formcast/contracts';
import { passwordMask } from './destination-rules';
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

/**
 * Each format's and transport's keys in destination.md's order; `created_at` and
 * `updated_at` go where its examples put them (after the first keys, as the product's
 * records' columns come).
 */
const parameterKeys: Record<string, { before: string[]; after: string[] }> = {
  json_format: { before: [], after: [] },
  xml_format: { before: [], after: [] },
  text_format: {
    before: ['include_images'],
    after: ['template', 'text_intro', 'custom_text_content', 'render_template_as_html', 'location_in_coordinate_format', 'include_answer_attributes'],
  },
  pdf_format: { before: ['file_name_template', 'include_images', 'location_in_coordinate_format'], after: [] },
  word_format: { before: ['file_name_template', 'template_resource_id'], after: [] },
  http_transport: { before: ['uri'], after: [] },
  dispatch_transport: { before: ['form_namespace', 'field_map'], after: [] },
  email_transport: {
    before: [
      'smtp_address',
      'smtp_port',
      'from_domain',
      'username',
      'password',
      'auth_scheme',
      'from_address',
      'from_name',
      'to_addresses',
      'to_address_form_field',
      'subject_template',
      'body_template',
    ],
    after: ['use_tls', 'via_custom_smtp', 'custom_email_content', 'to_address_device_attribute', 'encryption', 'skip_bounce_list_check', 'allow_no_email'],
  },
};

/** A format's or transport's parameters as shown: its record's id (the destination's), every key (null when unset), its times. */
function parametersView(type: string, id: number, parameters: object, createdAt: string, updatedAt: string): Record<string, unknown> {
  const given = parameters as Record<string, unknown>;
  const keys = parameterKeys[type] ?? { before: Object.keys(given), after: [] };
  const view: Record<string, unknown> = { id };
  const put = (key: string) => {
    view[key] = given[key] ?? null;
  };
  keys.before.forEach(put);
  view['created_at'] = createdAt;
  view['updated_at'] = updatedAt;
  keys.after.forEach(put);
  // Ours, shown only when set (as before the shapes were written out).
  if (type === 'http_transport' && given['headers'] !== undefined) view['headers'] = given['headers'];
  if (type === 'email_transport') {
    view['password'] = given['password'] ? passwordMask : null;
    view['encryption'] = given['encryption'] ?? 0;
  }
  return view;
}

export function toDestinationDetailView(destination: Destination): DestinationDetailView {
  const { id, createdAt } = destination;
  return {
    ...toDestinationView(destination),
    [destination.format]: parametersView(destination.format, id, destination.formatParameters, createdAt, destination.formatUpdatedAt),
    [destination.transport.type]: parametersView(destination.transport.type, id, destination.transport.parameters, createdAt, destination.transportUpdatedAt),
  } as DestinationDetailView;
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
