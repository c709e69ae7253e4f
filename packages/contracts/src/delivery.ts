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
  /** A delivery's document (the PDF, .docx or text an email carried; a webhook's body), bytes as the reply's attachment. */
  getDeliveryDocument: 'delivery.delivery.document',
  /** report.md: a page of the organization's deliveries of a month (reports.ts). */
  performanceMetrics: 'delivery.report.performance_metrics',
} as const;

export const destinationFormats = ['json_format', 'xml_format', 'text_format', 'pdf_format', 'word_format'] as const;
export const destinationTransports = ['http_transport', 'dispatch_transport', 'email_transport'] as const;
/** Formats made into a document (a text body, a PDF, a .docx) and sent by email. */
export const documentFormats = ['text_format', 'pdf_format', 'word_format'] as const;
/**
 * Binary transports (where the real product sends images, sketches and signatures apart):
 * none is carried by Formcast, whose documents draw them in; `binary_none` and null say so.
 */
export const binaryTransportSelections = ['binary_none'] as const;
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

// ---- the document formats and email (destination.md's own example is text_format over email_transport)

/** A liquid template's text (liquidjs); parsed when the destination is created or updated. */
const templateText = z.string().max(100_000, 'must be at most 100000 characters');
const flag = z.boolean().nullable().optional();
const text = (max: number) => z.string().max(max, `must be at most ${max} characters`).nullable().optional();

/** `text_format`: the answers as readable text, or the liquid `template` rendered (as HTML when `render_template_as_html`). */
export const textFormatParameters = z.object({
  include_images: flag,
  template: templateText.nullable().optional(),
  text_intro: text(10_000),
  /** The product's: true sends `template` instead of the answers' list (a template given is used either way). */
  custom_text_content: flag,
  render_template_as_html: flag,
  location_in_coordinate_format: flag,
  include_answer_attributes: flag,
});

/** A file name as a liquid template: `{{form_name}}-{{submission_id}}`; the extension is added. */
const fileNameTemplate = templateText.max(500, 'must be at most 500 characters').nullable().optional();

/** `pdf_format`: the submission as a PDF, attached. */
export const pdfFormatParameters = z.object({
  file_name_template: fileNameTemplate,
  include_images: flag,
  location_in_coordinate_format: flag,
});

/** `word_format`: a .docx of the same content; `template_resource_id` (ours): a .docx resource whose `{placeholders}` the answers fill. */
export const wordFormatParameters = z.object({
  file_name_template: fileNameTemplate,
  template_resource_id: z.number().int().positive().nullable().optional(),
});

const addressList = z
  .string()
  .max(5000, 'must be at most 5000 characters')
  .refine((value) => splitAddresses(value).every(isEmailAddress), { message: 'must be email addresses separated by ; or ,' });

/** `a@b.c;d@e.f` or with commas, as destination.md writes them. */
export function splitAddresses(value: string): string[] {
  return value
    .split(/[;,]/)
    .map((address) => address.trim())
    .filter((address) => address !== '');
}

export function isEmailAddress(value: string): boolean {
  return value.length <= 254 && /^[^\s@<>(),;:"\[\]\\]+@[A-Za-z0-9](?:[A-Za-z0-9-]{0,62}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,62}[A-Za-z0-9])?)*$/.test(value);
}

const domainPattern = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,62}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,62}[A-Za-z0-9])?)+$/;

const hostName = z
  .string()
  .max(253)
  .regex(/^[A-Za-z0-9.-]+$|^\[[0-9A-Fa-f:.]+\]$/, { message: 'must be a host name or an IP address' });

/**
 * `email_transport`, with every key destination.md shows. Recipients: `to_addresses`, the
 * answer of `to_address_form_field`, or both; a custom SMTP server when `via_custom_smtp`,
 * else the deployment's (DELIVERY_SMTP_URL). `password` is sealed at rest and never shown.
 */
export const emailTransportParameters = z
  .object({
    to_addresses: addressList.nullable().optional(),
    to_address_form_field: questionIdentifier.nullable().optional(),
    to_address_device_attribute: text(255),
    from_address: z.string().refine(isEmailAddress, { message: 'must be an email address' }).nullable().optional(),
    from_name: text(255).refine((v) => v == null || !/[\r\n]/.test(v), { message: 'is one line' }),
    from_domain: text(253).refine((v) => v == null || v === '' || domainPattern.test(v), { message: 'must be a domain name' }),
    subject_template: templateText.max(2000, 'must be at most 2000 characters').nullable().optional(),
    body_template: templateText.nullable().optional(),
    custom_email_content: flag,
    via_custom_smtp: flag,
    smtp_address: hostName.nullable().optional(),
    smtp_port: z.number().int().min(1).max(65535).nullable().optional(),
    username: text(255),
    password: text(255),
    auth_scheme: z.enum(['plain', 'login', 'cram_md5', 'none'], { error: 'must be plain, login, cram_md5 or none' }).nullable().optional(),
    use_tls: flag,
    encryption: z.number().int().min(0).max(2).nullable().optional(),
    skip_bounce_list_check: flag,
    allow_no_email: flag,
  })
  .superRefine((params, ctx) => {
    if (!params.to_addresses && !params.to_address_form_field && !params.to_address_device_attribute) {
      ctx.addIssue({ code: 'custom', path: ['to_addresses'], message: 'is required (or to_address_form_field)' });
    }
    if (params.via_custom_smtp && !params.smtp_address) ctx.addIssue({ code: 'custom', path: ['smtp_address'], message: 'is required with via_custom_smtp' });
  });

export type TextFormatParameters = z.infer<typeof textFormatParameters>;
export type PdfFormatParameters = z.infer<typeof pdfFormatParameters>;
export type WordFormatParameters = z.infer<typeof wordFormatParameters>;
export type EmailTransportParameters = z.infer<typeof emailTransportParameters>;
export type DocumentFormat = (typeof documentFormats)[number];

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
  text_format: textFormatParameters.optional(),
  pdf_format: pdfFormatParameters.optional(),
  word_format: wordFormatParameters.optional(),
  http_transport: httpTransportParameters.optional(),
  dispatch_transport: dispatchTransportParameters.optional(),
  email_transport: emailTransportParameters.optional(),
};

/**
 * `dispatch_transport` sends the submission's XML instance, as the real product pairs them;
 * the PDF and the .docx go by email or as an HTTP POST's body; `text_format` only by email, as in
 * the product (its components documentation: http_transport carries xml, json, word, pdf).
 */
function checkPairing(format: DestinationFormat, transport: DestinationTransport, ctx: z.RefinementCtx): void {
  const path = ['destination', 'format_selection'];
  if (transport === 'dispatch_transport' && format !== 'xml_format') {
    ctx.addIssue({ code: 'custom', path, message: 'must be xml_format with dispatch_transport' });
  }
  if (transport === 'http_transport' && format === 'text_format') {
    ctx.addIssue({ code: 'custom', path, message: 'text_format goes by email_transport; http_transport carries json_format, xml_format, pdf_format or word_format' });
  }
}

const binaryTransportSelection = z
  .string()
  .nullable()
  .optional()
  .refine((value) => value == null || (binaryTransportSelections as readonly string[]).includes(value), {
    message: 'Formcast carries no binary transport: images, sketches and signatures are drawn into the document (binary_none or null)',
  });

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
      binary_transport_selection: binaryTransportSelection,
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
      binary_transport_selection: binaryTransportSelection,
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

export const deliveryDocumentPayload = redeliverPayload;

/** A delivery's document as the reply's value; its bytes are the attachment. */
export interface DeliveryDocumentView {
  file_name: string;
  content_type: string;
  created_at: string;
}

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

/**
 * A format's or transport's parameters as shown (destination.md): its record's `id` (the
 * `format_id` / `transport_id`), every documented key (null when not set), and its times.
 */
export type ParametersView<T> = Flat<{ id: number } & { [K in keyof T]-?: Exclude<T[K], undefined> | null } & { created_at: string; updated_at: string }>;
type Flat<T> = { [K in keyof T]: T[K] };

/** A format without parameters as shown: its record. */
export interface ParameterRecordView {
  id: number;
  created_at: string;
  updated_at: string;
}

/** An http transport as shown: `headers` (ours) only when set. */
export interface HttpTransportView {
  id: number;
  uri: string;
  headers?: Record<string, string>;
  created_at: string;
  updated_at: string;
}

/** An email transport as shown: `password` is never shown, `"********"` says one is set. */
export type EmailTransportView = ParametersView<EmailTransportParameters>;

/** Show: the listed keys, and the parameters nested under the format's and the transport's names. */
export interface DestinationDetailView extends DestinationView {
  json_format?: ParameterRecordView;
  xml_format?: ParameterRecordView;
  text_format?: ParametersView<TextFormatParameters>;
  pdf_format?: ParametersView<PdfFormatParameters>;
  word_format?: ParametersView<WordFormatParameters>;
  http_transport?: HttpTransportView;
  dispatch_transport?: Flat<{ id: number } & DispatchTransportParameters & { created_at: string; updated_at: string }>;
  email_transport?: EmailTransportView;
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
  /** The receiver's status, or the SMTP server's reply code (250, 421, 550…); null when none came (refused, timed out) or for a dispatch. */
  status_code: number | null;
  duration_ms: number;
  /** The first 1 KB of the answer, as text (for email, the SMTP server's reply text). */
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
