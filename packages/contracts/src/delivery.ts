import { z } from 'zod';
import { headerNamePattern, hopByHopRefusal, isHttpUri, unsendableHeaderCharacter } from './destination-address-rules';

/**
 * Commands served by the delivery service: the destinations of a form (where its
 * submissions go) and the log of what was sent to each. Every command names the form; a
 * form of another organization, or none, is 'not_found'.
 */
export const deliveryCommands = {
  listDestinations: 'delivery.destination.list',
  getDestination: 'delivery.destination.get',
  createDestination: 'delivery.destination.create',
  updateDestination: 'delivery.destination.update',
  deleteDestination: 'delivery.destination.delete',
  /** A new signing secret; the old one keeps signing beside it for an overlap window. */
  rotateDestinationSecret: 'delivery.destination.rotate_secret',
  listDeliveries: 'delivery.delivery.list',
  redeliver: 'delivery.delivery.redeliver',
} as const;

export const destinationFormats = ['json_format', 'xml_format'] as const;
export const destinationTransports = ['http_transport', 'dispatch_transport'] as const;
export type DestinationFormat = (typeof destinationFormats)[number];
export type DestinationTransport = (typeof destinationTransports)[number];

const id = z.number().int().positive();

// ---- parameters of each format and transport, as the API spells them ----------------------

/** Neither format has parameters yet; what the real product sends beside them is accepted and ignored. */
export const jsonFormatParameters = z.object({});
export const xmlFormatParameters = z.object({});

const maxHeaders = 30;
/** Headers the delivery itself sets: a destination cannot replace them. */
export const reservedDeliveryHeaders = [
  'content-type',
  'content-length',
  'transfer-encoding',
  'connection',
  'host',
  'webhook-id',
  'webhook-timestamp',
  'webhook-signature',
] as const;

export const httpTransportParameters = z.object({
  uri: z
    .string({ error: 'is required' })
    .trim()
    .max(2000)
    .refine(isHttpUri, { message: 'must be an http or https URL, without credentials (send those as headers)' }),
  headers: z
    .record(
      z.string(),
      z
        .string()
        .max(4000)
        .regex(/^[^\r\n\0]*$/, { message: 'header values are one line' })
        .superRefine((value, ctx) => {
          const character = unsendableHeaderCharacter(value);
          if (character && !/[\r\n\0]/.test(value)) {
            ctx.addIssue({ code: 'custom', message: `contains ${character}: header values are Latin-1 text (TAB, space, visible characters)` });
          }
        }),
    )
    .superRefine((headers, ctx) => {
      const names = Object.keys(headers);
      if (names.length > maxHeaders) ctx.addIssue({ code: 'custom', message: `at most ${maxHeaders} headers` });
      for (const name of names) {
        const hopByHop = hopByHopRefusal(name);
        if (!headerNamePattern.test(name)) {
          ctx.addIssue({ code: 'custom', path: [name], message: "header names are letters, digits and !#$%&'*+.^_`|~-" });
        } else if ((reservedDeliveryHeaders as readonly string[]).includes(name.toLowerCase())) {
          ctx.addIssue({ code: 'custom', path: [name], message: `set by every delivery; a destination may not set ${reservedDeliveryHeaders.join(', ')}` });
        } else if (hopByHop) {
          ctx.addIssue({ code: 'custom', path: [name], message: hopByHop });
        }
      }
    })
    .optional(),
});

/** A template question's identifier (the directory's rule). */
const identifierPattern = /^[A-Za-z_][A-Za-z0-9_-]{0,127}$/;
const questionIdentifier = z.string().regex(identifierPattern, { message: 'must be a question identifier' });

/**
 * Ours (the real product's are not recorded): when the form is submitted, push the template
 * `form_namespace` to the device that submitted it, pre-filled: each target question of
 * `field_map` takes the submitted answer of its source question.
 */
export const dispatchTransportParameters = z.object({
  form_namespace: z.string({ error: 'is required' }).min(1, 'is required').max(1000),
  field_map: z
    .record(z.string(), questionIdentifier)
    .superRefine((map, ctx) => {
      const targets = Object.keys(map);
      if (targets.length > 2000) ctx.addIssue({ code: 'custom', message: 'at most 2000 questions' });
      for (const target of targets) {
        if (!identifierPattern.test(target)) ctx.addIssue({ code: 'custom', path: [target], message: 'must be a question identifier' });
      }
    })
    .default({}),
});

export type JsonFormatParameters = z.infer<typeof jsonFormatParameters>;
export type XmlFormatParameters = z.infer<typeof xmlFormatParameters>;
export type HttpTransportParameters = z.infer<typeof httpTransportParameters>;
export type DispatchTransportParameters = z.infer<typeof dispatchTransportParameters>;

// ---- payloads ------------------------------------------------------------------------------

const description = z.string().max(255, 'must be at most 255 characters').nullable();

/** The parameter objects beside `destination`, keyed by format or transport name, as the API's body has them. */
const parameterObjects = {
  json_format: jsonFormatParameters.optional(),
  xml_format: xmlFormatParameters.optional(),
  http_transport: httpTransportParameters.optional(),
  dispatch_transport: dispatchTransportParameters.optional(),
};

/** `dispatch_transport` sends the submission's XML instance, as the real product pairs them. */
function checkPairing(format: DestinationFormat, transport: DestinationTransport, ctx: z.RefinementCtx): void {
  if (transport === 'dispatch_transport' && format !== 'xml_format') {
    ctx.addIssue({ code: 'custom', path: ['destination', 'format_selection'], message: 'must be xml_format with dispatch_transport' });
  }
}

/**
 * The API's create body with the form's id: `{"destination":{description, format_selection,
 * transport_selection}, "<format>":{…}, "<transport>":{…}}`. The chosen transport's
 * parameters are required; the format's may be left out.
 */
export const createDestinationPayload = z
  .object({
    formId: id,
    destination: z.object({
      description: description.default(null),
      format_selection: z.enum(destinationFormats, { error: `must be one of ${destinationFormats.join(', ')}` }),
      transport_selection: z.enum(destinationTransports, { error: `must be one of ${destinationTransports.join(', ')}` }),
    }),
    ...parameterObjects,
  })
  .superRefine((input, ctx) => {
    const { format_selection: format, transport_selection: transport } = input.destination;
    if (input[transport] === undefined) ctx.addIssue({ code: 'custom', path: [transport], message: 'is required' });
    checkPairing(format, transport, ctx);
  });

/**
 * The description, `active`, and the parameters of the destination's own format and
 * transport (given: they replace the old ones). Format and transport cannot change:
 * create another destination. `active: true` turns a deactivated destination back on.
 */
export const updateDestinationPayload = z.object({
  formId: id,
  destinationId: id,
  destination: z
    .object({
      description: description.optional(),
      active: z.boolean().optional(),
      format_selection: z.enum(destinationFormats).optional(),
      transport_selection: z.enum(destinationTransports).optional(),
    })
    .default({}),
  ...parameterObjects,
});

export const formDestinationsPayload = z.object({ formId: id });
export const destinationIdPayload = z.object({ formId: id, destinationId: id });

/** The default overlap of a rotation: receivers have a day to take the new secret. */
export const defaultSecretOverlapSeconds = 24 * 60 * 60;

export const rotateDestinationSecretPayload = z.object({
  formId: id,
  destinationId: id,
  /** How long the old secret keeps signing beside the new one (0: not at all; at most 7 days). */
  overlap_seconds: z
    .number()
    .int()
    .min(0)
    .max(7 * 24 * 60 * 60)
    .default(defaultSecretOverlapSeconds),
});

export const deliveriesMaxPerPage = 100;

/** A destination's deliveries, newest first, a page at a time. */
export const listDeliveriesPayload = z.object({
  formId: id,
  destinationId: id,
  page: z.number().int().min(1).default(1),
  per_page: z.number().int().min(1).max(deliveriesMaxPerPage).default(20),
});

/** Send one delivery again from the start of the retry schedule, with the same webhook-id. */
export const redeliverPayload = z.object({ formId: id, destinationId: id, deliveryId: id });

export type CreateDestinationPayload = z.infer<typeof createDestinationPayload>;
export type UpdateDestinationPayload = z.infer<typeof updateDestinationPayload>;

// ---- views: the API's JSON shapes ----------------------------------------------------------

/**
 * Why a destination stopped: `gone` (a receiver answered 410), `failing` (its deliveries
 * kept failing: see the delivery service's outcome rules).
 */
export type DeactivationReason = 'gone' | 'failing';

/** A destination as listed, the real product's keys plus why it is inactive. */
export interface DestinationView {
  id: number;
  description: string | null;
  active: boolean;
  format_type: DestinationFormat;
  /** Each destination has its own format and transport records, sharing its id. */
  format_id: number;
  transport_type: DestinationTransport;
  transport_id: number;
  binary_transport_type: null;
  binary_transport_id: null;
  created_at: string;
  updated_at: string;
  deactivated_reason: DeactivationReason | null;
  deactivated_at: string | null;
}

/** Show: the listed keys, and the parameters nested under the format's and the transport's names. */
export interface DestinationDetailView extends DestinationView {
  json_format?: JsonFormatParameters;
  xml_format?: XmlFormatParameters;
  http_transport?: HttpTransportParameters;
  dispatch_transport?: DispatchTransportParameters;
}

/**
 * Create and rotate only: the detail with the signing secret (`whsec_<Base64>`, Standard
 * Webhooks), never shown again. `previous_secret_expires_at`: until when the one it
 * replaced still signs (rotate; null on create).
 */
export interface DestinationWithSecretView extends DestinationDetailView {
  secret: string;
  previous_secret_expires_at: string | null;
}

export type DeliveryStatus = 'pending' | 'succeeded' | 'failed';

export interface DeliveryAttemptView {
  attempted_at: string;
  /** The receiver's status; null when none came (refused, timed out) or for a dispatch. */
  status_code: number | null;
  duration_ms: number;
  /** The first 1 KB of the answer, as text. */
  response_body: string | null;
  /** What went wrong, when the attempt failed without an answer or with a refused one. */
  error: string | null;
}

export interface DeliveryView {
  id: number;
  destination_id: number;
  submission_id: number;
  /** The `webhook-id` header: the same on every attempt of this delivery. */
  webhook_id: string;
  status: DeliveryStatus;
  /** When the next attempt is due; null when none is (finished, or its destination is inactive). */
  next_attempt_at: string | null;
  created_at: string;
  updated_at: string;
  /** Oldest first. */
  attempts: DeliveryAttemptView[];
}

export interface DeliveryListView {
  per_page: number;
  current_page: number;
  total_pages: number;
  total_count: number;
  deliveries: DeliveryView[];
}
