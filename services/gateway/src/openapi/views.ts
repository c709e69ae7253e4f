import { z } from 'zod';
import {
  dispatchTransportParameters,
  httpTransportParameters,
  jsonFormatParameters,
  xmlFormatParameters,
  destinationFormats,
  destinationTransports,
  listDevicesPayload,
  type ApiTokenView,
  type BulkDispatchResult,
  type DeadLetterQueueView,
  type DeadLetterView,
  type DeliveryAttemptView,
  type DeliveryView,
  type DestinationDetailView,
  type DestinationView,
  type DestinationWithSecretView,
  type DeviceBadgeView,
  type DeviceOneshotView,
  type DeviceV2View,
  type DeviceVersionsView,
  type DeviceView,
  type DispatchView,
  type EnrolledDeviceView,
  type EnrollmentCodeView,
  type FormCreatedView,
  type FormListItemView,
  type FormSubmissionView,
  type FormUpdatedView,
  type GroupView,
  type OneshotCreatedView,
  type OrganizationCreatedView,
  type OrganizationView,
  type OutstandingOneshotView,
  type ResourceListItemView,
  type AsyncResourceUpdateView,
  type ResourceView,
  type SubmissionDatabasePageView,
  type SubmissionRecordView,
  type TypedAnswer,
  type SubmissionView,
} from '@formcast/contracts';
import type { AuthorView } from '../render/authors';
import type { ResourceWithStatusView } from '../render/resources-xml';
import { fieldOf, viewSchema } from './json-schema';

/*
 * The answers' JSON shapes. The contracts declare views as TypeScript interfaces (types
 * only), so they are described here in zod, each checked against its interface at compile
 * time (viewSchema): a field added to a view and not here fails the build. Strict objects, so
 * the document's validation of real answers catches a field the view gained at run time too.
 */

const id = z.number().int().positive();
const time = z.string().describe('ISO 8601 time, UTC');
/** Versions as the real product shows them: "1.00", "1.01"… */
const formVersion = z.string().describe('the template revision as "1.00", "1.01"…');

export const oneshotCreatedView = viewSchema<OneshotCreatedView>()(z.strictObject({ id, namespace: z.string(), name: z.string() }));

export const outstandingOneshotView = viewSchema<OutstandingOneshotView>()(
  z.strictObject({ description: z.string(), device_id: id, id, name: z.string(), namespace: z.string(), organization_id: id }),
);

export const dispatchView = viewSchema<DispatchView>()(
  z.strictObject({
    id,
    name: z.string(),
    namespace: z.string().describe('`<template namespace>?<uuid>`'),
    version: formVersion,
    organization_id: id,
    device_id: id,
    description: z.string(),
    parent_form_id: id,
    parent_form_version: formVersion,
    created_at: time,
    updated_at: time,
    scheduled_at: time.nullable().describe('null when it was sent at once'),
    location: z.string().nullable(),
    address: z.string().nullable(),
    geofence_radius: z.number().nullable(),
    author_identifier: z.string().describe("the device's identifier, as the dispatch authors list it"),
    author_type: z.literal('Device').describe('Formcast has no web users'),
    inputs: z.record(z.string(), z.unknown()).optional().describe('with `include_inputs=true`: question → value, as pushed'),
  }),
);

export const bulkDispatchResult = viewSchema<BulkDispatchResult>()(
  z.union([
    z.strictObject({ status: z.literal(202), id, namespace: z.string(), name: z.string() }),
    z.strictObject({ status: z.number().int(), error: z.strictObject({ code: z.string(), message: z.string() }) }),
  ]),
);

export const authorView = viewSchema<AuthorView>()(
  z.strictObject({ identifier: z.string(), type: z.literal('Device'), name: z.string(), email: z.null() }),
);

/** The query of both author listings: `page` and `items`. */
export const authorsQuery = {
  page: { schema: fieldOf(listDevicesPayload, 'page'), description: 'The page, from 1 (every author when neither `page` nor `items` is given)' },
  items: { schema: fieldOf(listDevicesPayload, 'items'), description: 'Authors per page (100 when only `page` is given)' },
};

/** The answer of both author listings (dispatch and submission authors: the same devices). */
export const authorsAnswer = {
  description: 'JSON unless asked for XML',
  json: z.strictObject({ authors: z.array(authorView) }),
  xml: '`<authors type="array"><author><identifier/><type/><name/><email nil="true"/></author>…</authors>`',
};

export const deviceOneshotView = viewSchema<DeviceOneshotView>()(
  z.strictObject({
    id,
    name: z.string(),
    description: z.string(),
    namespace: z.string(),
    form_namespace: z.string(),
    payload: z.record(z.string(), z.unknown()),
    created_at: time,
    updated_at: time,
  }),
);

export const oneshotSubmissionView = viewSchema<SubmissionView>()(z.strictObject({ oneshot_id: id, submitted_at: time }));

export const formSubmissionView = viewSchema<FormSubmissionView>()(
  z.strictObject({
    id,
    form_id: id,
    oneshot_id: id.nullable(),
    submission_identifier: z.string().nullable(),
    submitted_at: time,
    received_at: time,
  }),
);

const typed = <T extends z.ZodType, K extends 'string' | 'integer' | 'datetime'>(value: T, type: K) =>
  z.strictObject({ value, type: z.enum(['string', 'integer', 'datetime']).describe(`"${type}" here`) });

const typedAnswer: z.ZodType<TypedAnswer> = z
  .strictObject({ value: z.unknown(), type: z.string() })
  .describe('`{"value": …, "type": <the question\'s type>}`; a subform\'s value an object of these, a group\'s an array of them');

export const submissionRecordView = viewSchema<SubmissionRecordView>()(
  z.strictObject({
    form: z.strictObject({ id, name: z.string(), version: z.string() }),
    metadata: z.strictObject({
      device_id: typed(z.string(), 'string'),
      user_id: typed(z.null(), 'string'),
      username: typed(z.string(), 'string'),
      submitted_at: typed(time, 'datetime'),
      received_at: typed(time, 'datetime'),
      submission_id: typed(z.string(), 'integer').describe('the id as a string, as documented'),
      device_submission_identifier: typed(z.string().nullable(), 'string'),
      form_name: z.strictObject({ value: z.string() }),
      form_namespace: z.strictObject({ value: z.string() }),
      form_version: z.strictObject({ value: z.string() }),
      device: z.strictObject({ value: z.record(z.string(), z.string()) }).describe("the device's custom attributes"),
    }),
    submission: z.record(z.string(), typedAnswer).describe('question identifier → {"value": …, "type": …}'),
  }),
);

/** A page's counts, in the real product's shape (the submissions database's page; the delivery log's follows it). */
const pageCounts = {
  per_page: z.number().int(),
  current_page: z.number().int(),
  total_pages: z.number().int(),
  current_count: z.number().int(),
  total_count: z.number().int(),
};

export const submissionDatabasePageView = viewSchema<SubmissionDatabasePageView>()(z.strictObject({ ...pageCounts, submissions: z.array(submissionRecordView) }));

export const organizationCreatedView = viewSchema<OrganizationCreatedView>()(
  z.strictObject({
    organization: z.strictObject({ id, name: z.string(), enrollment_code: z.string().describe('shown this once') }),
    api_token: z.string().describe('shown this once'),
  }),
);

export const organizationView = viewSchema<OrganizationView>()(z.strictObject({ id, name: z.string(), created_at: time }));

export const enrollmentCodeView = viewSchema<EnrollmentCodeView>()(
  z.strictObject({ organization_id: id, enrollment_code: z.string().describe('shown this once; the one before stops enrolling') }),
);

export const apiTokenView = viewSchema<ApiTokenView>()(z.strictObject({ id, label: z.string(), created_at: time, revoked_at: time.nullable() }));

/** `directory.token.issue` answers this shape (no interface in the contracts). */
export const issuedApiTokenView = z.strictObject({ id, label: z.string(), api_token: z.string().describe('shown this once') });

export const groupView = viewSchema<GroupView>()(
  z.strictObject({ id, name: z.string(), form_ids: z.array(id), device_ids: z.array(id), tags: z.array(z.string()).describe('its tags (group.md)') }),
);

const customAttributes = z.record(z.string(), z.string()).describe('name → text, at most 50');

/** What a device's app reported of itself (v2 and later). */
const deviceVersionFields = {
  os_version: z.string().nullable(),
  app_identifier: z.string().nullable(),
  app_version: z.string().nullable(),
};

const deviceRecordFields = {
  organization_id: id,
  owner: z.string(),
  description: z.string(),
  pending_approval: z.boolean(),
};

export const deviceView = viewSchema<DeviceView>()(
  z.strictObject({
    id,
    identifier: z.string(),
    ...deviceRecordFields,
    groups: z.string().describe('group names, comma-separated'),
    custom_attributes: customAttributes,
  }),
);

export const deviceV2View = viewSchema<DeviceV2View>()(
  z.strictObject({
    id,
    identifier: z.string(),
    ...deviceVersionFields,
    ...deviceRecordFields,
    groups: z.array(z.strictObject({ name: z.string() })),
    custom_attributes: customAttributes,
  }),
);

export const deviceVersionsView = viewSchema<DeviceVersionsView>()(
  z.strictObject({ id, identifier: z.string(), ...deviceVersionFields }),
);

export const enrolledDeviceView = viewSchema<EnrolledDeviceView>()(
  z.strictObject({ device: deviceView, device_secret: z.string().describe('the Bearer secret of /device/…, shown this once') }),
);

export const formListItemView = viewSchema<FormListItemView>()(
  z.strictObject({ id, name: z.string(), namespace: z.string(), version: formVersion, description: z.string(), group: z.string() }),
);

export const formCreatedView = viewSchema<FormCreatedView>()(z.strictObject({ id, namespace: z.string(), name: z.string() }));

export const formUpdatedView = viewSchema<FormUpdatedView>()(
  z.strictObject({ id, namespace: z.string(), name: z.string(), version: formVersion }),
);

/** A template's definition as posted, with its namespace (its questions are the client's own shape). */
export const formDefinitionView = z
  .looseObject({
    namespace: z.string(),
    title: z.string().optional(),
    children: z.array(z.unknown()).optional(),
    version: z.string().describe('"1.00", "1.01"…'),
    description: z.string(),
    group: z.string().describe("the name of the form's group"),
  })
  .describe('the definition as posted (type, title, children…), with its namespace, version, description and group (form.md)');

export const resourceListItemView = viewSchema<ResourceListItemView>()(
  z.strictObject({ id, original_filename: z.string(), version: z.number().int().min(0), description: z.string() }),
);

export const asyncResourceUpdateView = viewSchema<AsyncResourceUpdateView>()(
  z.strictObject({
    async_resource_update_id: z.string().describe('a UUID'),
    status: z.enum(['queued', 'processing', 'completed', 'failed']),
    resource_version_when_queued: z.number().int().min(0).nullable().describe('null for a create'),
    resource_version_when_completed: z.number().int().min(0).optional().describe('once completed'),
    resource: z
      .strictObject({ id, identifier: z.string(), original_filename: z.string(), version: z.number().int().min(0), description: z.string() })
      .optional()
      .describe('once completed'),
    error: z.string().optional().describe('once failed: why'),
    poll_url: z.string().optional().describe('while queued or processing'),
    created_at: time,
    updated_at: time,
  }),
);

const resourceTableView = z.strictObject({
  table_name: z.string(),
  original_sheet_name: z.string(),
  table_id: z.string(),
  columns: z.array(z.strictObject({ column_name: z.string(), column_number: z.number().int().positive(), column_id: z.string() })),
});

const resourceFields = {
  id,
  identifier: z.string(),
  original_filename: z.string(),
  version: z.number().int().min(0),
  description: z.string(),
  generated_content_summary: z.array(resourceTableView).describe('a spreadsheet: one table per sheet, its first row as columns'),
};

export const resourceView = viewSchema<ResourceView>()(z.strictObject(resourceFields));

export const resourceWithStatusView = viewSchema<ResourceWithStatusView>()(
  z.strictObject({ ...resourceFields, status: z.string().describe('always "Ready": a file is checked before the create answers') }),
);

export const badgeView = viewSchema<DeviceBadgeView>()(
  z.strictObject({
    badge: z.number().int().min(0),
    push_token_present: z.boolean().describe('whether the device has registered a push token (the token itself is never shown)'),
  }),
);

const destinationFields = {
  id,
  description: z.string().nullable(),
  active: z.boolean(),
  format_type: z.enum(destinationFormats),
  format_id: id,
  transport_type: z.enum(destinationTransports),
  transport_id: id,
  binary_transport_type: z.null(),
  binary_transport_id: z.null(),
  created_at: time,
  updated_at: time,
  deactivated_reason: z.enum(['gone', 'failing']).nullable(),
  deactivated_at: time.nullable(),
};

/** A format's or transport's record as shown (destination.md): its id, every key (null when unset), its times. */
const parameterRecord = { id, created_at: time, updated_at: time };
const nullableFlag = z.boolean().nullable();
const nullableText = z.string().nullable();

const textFormatView = viewSchema<NonNullable<DestinationDetailView['text_format']>>()(
  z.strictObject({
    ...parameterRecord,
    include_images: nullableFlag,
    template: nullableText,
    text_intro: nullableText,
    custom_text_content: nullableFlag,
    render_template_as_html: nullableFlag,
    location_in_coordinate_format: nullableFlag,
    include_answer_attributes: nullableFlag,
  }),
);
const pdfFormatView = viewSchema<NonNullable<DestinationDetailView['pdf_format']>>()(
  z.strictObject({ ...parameterRecord, file_name_template: nullableText, include_images: nullableFlag, location_in_coordinate_format: nullableFlag }),
);
const wordFormatView = viewSchema<NonNullable<DestinationDetailView['word_format']>>()(
  z.strictObject({ ...parameterRecord, file_name_template: nullableText, template_resource_id: id.nullable() }),
);
const emailTransportView = viewSchema<NonNullable<DestinationDetailView['email_transport']>>()(
  z.strictObject({
    ...parameterRecord,
    smtp_address: nullableText,
    smtp_port: z.number().int().nullable(),
    from_domain: nullableText,
    username: nullableText,
    password: nullableText.describe('`"********"` when one is set: never shown'),
    auth_scheme: z.enum(['plain', 'login', 'cram_md5', 'none']).nullable(),
    from_address: nullableText,
    from_name: nullableText,
    to_addresses: nullableText,
    to_address_form_field: nullableText,
    subject_template: nullableText,
    body_template: nullableText,
    use_tls: nullableFlag,
    via_custom_smtp: nullableFlag,
    custom_email_content: nullableFlag,
    to_address_device_attribute: nullableText,
    encryption: z.number().int().nullable(),
    skip_bounce_list_check: nullableFlag,
    allow_no_email: nullableFlag,
  }),
);

const destinationParameters = {
  json_format: z.strictObject({ ...parameterRecord, ...jsonFormatParameters.shape }).optional(),
  xml_format: z.strictObject({ ...parameterRecord, ...xmlFormatParameters.shape }).optional(),
  text_format: textFormatView.optional(),
  pdf_format: pdfFormatView.optional(),
  word_format: wordFormatView.optional(),
  http_transport: z.strictObject({ ...parameterRecord, ...httpTransportParameters.shape }).optional(),
  dispatch_transport: z.strictObject({ ...parameterRecord, ...dispatchTransportParameters.shape }).optional(),
  email_transport: emailTransportView.optional(),
};

export const destinationView = viewSchema<DestinationView>()(z.strictObject(destinationFields));

export const destinationDetailView = viewSchema<DestinationDetailView>()(z.strictObject({ ...destinationFields, ...destinationParameters }));

export const destinationWithSecretView = viewSchema<DestinationWithSecretView>()(
  z.strictObject({
    ...destinationFields,
    ...destinationParameters,
    secret: z.string().describe('`whsec_<Base64>` (Standard Webhooks), shown this once'),
    previous_secret_expires_at: time.nullable(),
  }),
);

export const deliveryAttemptView = viewSchema<DeliveryAttemptView>()(
  z.strictObject({
    attempted_at: time,
    status_code: z.number().int().nullable(),
    duration_ms: z.number().min(0),
    response_body: z.string().nullable(),
    error: z.string().nullable(),
  }),
);

export const deliveryView = viewSchema<DeliveryView>()(
  z.strictObject({
    id,
    destination_id: id,
    submission_id: id,
    webhook_id: z.string(),
    status: z.enum(['pending', 'succeeded', 'failed']),
    next_attempt_at: time.nullable(),
    created_at: time,
    updated_at: time,
    attempts: z.array(deliveryAttemptView),
  }),
);

/** The delivery log's page as the gateway answers it (the list view and `current_count`). */
export const deliveryPageView = z.strictObject({ ...pageCounts, deliveries: z.array(deliveryView) });

export const deadLetterQueueView = viewSchema<DeadLetterQueueView>()(z.strictObject({ queue: z.string(), depth: z.number().int().min(0) }));

export const deadLetterView = viewSchema<DeadLetterView>()(
  z.strictObject({
    id: z.string(),
    type: z.string(),
    occurred_at: time,
    organization_id: id.nullable(),
    request_id: z.string(),
    payload: z.unknown(),
    attachment_bytes: z.number().int().nullable(),
  }),
);
