import type { DeactivationReason, DeliveryStatus, DestinationFormat } from '@formcast/contracts';
import type { SecretCipher } from '../secrets';
import { openSigningSecrets, openTransport } from '../secrets';
import { targetTransport } from '../domain/submission-target';
import type {
  Delivery,
  DeliveryAttempt,
  Destination,
  DestinationTransportSettings,
  FormatParameters,
  RetiredSecret,
  SigningSecrets,
  SubmissionTarget,
} from '../domain/records';

export interface DestinationRow {
  id: number;
  org_id: number;
  form_id: number;
  description: string | null;
  active: number;
  format: string;
  format_parameters: string;
  format_updated_at: string | null;
  transport_type: string;
  transport_parameters: string;
  transport_updated_at: string | null;
  secret: string;
  retired_secrets: string;
  deactivated_reason: string | null;
  deactivated_at: string | null;
  failing_since: string | null;
  command_id: string;
  rotation_command_id: string | null;
  created_at: string;
  updated_at: string;
}

/** A destination row, its secrets opened with `cipher`. */
export function toDestination(row: DestinationRow, cipher: SecretCipher): Destination {
  return {
    id: row.id,
    orgId: row.org_id,
    formId: row.form_id,
    description: row.description,
    active: row.active === 1,
    format: row.format as DestinationFormat,
    formatParameters: JSON.parse(row.format_parameters) as FormatParameters,
    transport: openTransport(cipher, { type: row.transport_type, parameters: JSON.parse(row.transport_parameters) } as DestinationTransportSettings),
    secrets: openSigningSecrets(cipher, storedSecrets(row)),
    formatUpdatedAt: row.format_updated_at ?? row.created_at,
    transportUpdatedAt: row.transport_updated_at ?? row.updated_at,
    deactivatedReason: row.deactivated_reason as DeactivationReason | null,
    deactivatedAt: row.deactivated_at,
    failingSince: row.failing_since,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

export type SubmissionTargetRow = Pick<DestinationRow, 'id' | 'org_id' | 'form_id' | 'format' | 'transport_type'> & {
  /** Read only for a dispatch transport (NULL otherwise). */
  transport_parameters: string | null;
};

export function toSubmissionTarget(row: SubmissionTargetRow): SubmissionTarget {
  return { id: row.id, orgId: row.org_id, formId: row.form_id, format: row.format as DestinationFormat, transport: targetTransport(row.transport_type, row.transport_parameters) };
}

/** A destination row's secrets as stored (sealed). */
export function storedSecrets(row: Pick<DestinationRow, 'secret' | 'retired_secrets'>): SigningSecrets {
  return { current: row.secret, retired: JSON.parse(row.retired_secrets) as RetiredSecret[] };
}

export interface DeliveryRow {
  id: number;
  org_id: number;
  form_id: number;
  destination_id: number;
  submission_id: number;
  webhook_id: string;
  content_type: string;
  body: string;
  status: string;
  schedule_step: number;
  next_attempt_at: number | null;
  claimed_until: number;
  claim_token: string | null;
  created_at: string;
  updated_at: string;
}

export function toDelivery(row: DeliveryRow): Delivery {
  return {
    id: row.id,
    orgId: row.org_id,
    formId: row.form_id,
    destinationId: row.destination_id,
    submissionId: row.submission_id,
    webhookId: row.webhook_id,
    contentType: row.content_type,
    body: row.body,
    status: row.status as DeliveryStatus,
    scheduleStep: row.schedule_step,
    nextAttemptAt: row.next_attempt_at,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

export interface AttemptRow {
  delivery_id: number;
  attempted_at: string;
  status_code: number | null;
  duration_ms: number;
  response_body: string | null;
  error: string | null;
}

export function toAttempt(row: AttemptRow): DeliveryAttempt {
  return {
    deliveryId: row.delivery_id,
    attemptedAt: row.attempted_at,
    statusCode: row.status_code,
    durationMs: row.duration_ms,
    responseBody: row.response_body,
    error: row.error,
  };
}
