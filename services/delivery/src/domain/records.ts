import type {
  DeactivationReason,
  DeliveryStatus,
  DestinationFormat,
  DispatchTransportParameters,
  EmailTransportParameters,
  HttpTransportParameters,
  PdfFormatParameters,
  TextFormatParameters,
  WordFormatParameters,
} from '@formcast/contracts';

/** Where a destination sends, with its parameters as the API spells them. */
export type DestinationTransportSettings =
  | { type: 'http_transport'; parameters: HttpTransportParameters }
  | { type: 'dispatch_transport'; parameters: DispatchTransportParameters }
  | { type: 'email_transport'; parameters: EmailTransportParameters };

/** A format's parameters as the API spells them (json_format and xml_format have none). */
export type FormatParameters = TextFormatParameters | PdfFormatParameters | WordFormatParameters | Record<string, never>;

/** A secret replaced by a rotation, still signing beside the new one until `expiresAt`. */
export interface RetiredSecret {
  secret: string;
  expiresAt: string;
}

export interface SigningSecrets {
  /** `whsec_<Base64 of 32 random bytes>` (Standard Webhooks). */
  current: string;
  retired: RetiredSecret[];
}

export interface Destination {
  id: number;
  orgId: number;
  formId: number;
  description: string | null;
  active: boolean;
  format: DestinationFormat;
  formatParameters: FormatParameters;
  transport: DestinationTransportSettings;
  secrets: SigningSecrets;
  /** When the format's and the transport's parameters were last set (their records' `updated_at`). */
  formatUpdatedAt: string;
  transportUpdatedAt: string;
  deactivatedReason: DeactivationReason | null;
  deactivatedAt: string | null;
  /** The first failed attempt since the last success; null while healthy. */
  failingSince: string | null;
  createdAt: string;
  updatedAt: string;
}

/**
 * What a submission event needs of an active destination to make its delivery: no secrets,
 * no format parameters, and a transport's parameters only when they shape the body
 * (dispatch). A Destination is one.
 */
export type SubmissionTarget = Pick<Destination, 'id' | 'orgId' | 'formId' | 'format'> & {
  transport: { type: 'http_transport' | 'email_transport' } | Extract<DestinationTransportSettings, { type: 'dispatch_transport' }>;
};

/** What a new destination is made of; the store gives it its id and times. */
export type NewDestination = Pick<Destination, 'orgId' | 'formId' | 'description' | 'format' | 'formatParameters' | 'transport' | 'secrets'>;

/** What an update may change (the format and the transport's type never change). */
export interface DestinationChange {
  description?: string | null;
  active?: boolean;
  formatParameters?: FormatParameters;
  transport?: DestinationTransportSettings;
}

/**
 * One submission for one destination: at most one per (destination, submission), whatever
 * the number of times the event comes. Its webhook id and its body are fixed at creation,
 * so every attempt sends the same message.
 */
export interface Delivery {
  id: number;
  orgId: number;
  formId: number;
  destinationId: number;
  submissionId: number;
  webhookId: string;
  /** `application/json`, `application/xml`; for a dispatch, the push command's payload as JSON. */
  contentType: string;
  body: string;
  status: DeliveryStatus;
  /** Attempts made since the schedule last started (at creation or a redeliver). */
  scheduleStep: number;
  /** Epoch ms; null when none is due (finished, or waiting for its destination to be active again). */
  nextAttemptAt: number | null;
  createdAt: string;
  updatedAt: string;
}

export type NewDelivery = Pick<Delivery, 'orgId' | 'formId' | 'destinationId' | 'submissionId' | 'webhookId' | 'contentType' | 'body'>;

export interface DeliveryAttempt {
  deliveryId: number;
  attemptedAt: string;
  statusCode: number | null;
  durationMs: number;
  /** The first 1 KB of the answer, as text. */
  responseBody: string | null;
  error: string | null;
}

export interface DeliveryWithAttempts extends Delivery {
  attempts: DeliveryAttempt[];
}

/** A rendered document, as attached to the email and served by GET …/deliveries/<id>/document. */
export interface DeliveryDocument {
  /** The email it went with: subject, text and HTML bodies, whether the document is attached. */
  message: {
    subject: string;
    text: string;
    html: string | null;
    attach: boolean;
    answeredTo?: string | null;
    /** The submitting device's identifier (to_address_device_attribute is read from it when sending). */
    device?: string;
    /** text_format.include_images: the images sent beside the text, by Content-ID (Base64). */
    images?: Array<{ fileName: string; contentType: string; cid: string; base64: string }>;
  };
  contentType: string;
  fileName: string;
  bytes: Buffer;
  createdAt: string;
}
