import { z } from 'zod';

/** Commands served by the push service. */
export const pushCommands = {
  createOneshot: 'push.oneshot.create',
  updateOneshot: 'push.oneshot.update',
  listDeviceOneshots: 'push.oneshot.list_for_device',
  /** One oneshot, when it is outstanding on that device (the gateway's path check, before a body is read). */
  findOutstandingOneshot: 'push.oneshot.find_outstanding',
  listOrganizationOneshots: 'push.oneshot.list_for_organization',
  revokeOneshot: 'push.oneshot.revoke',
  revokeAllOneshots: 'push.oneshot.revoke_all',
  deviceListOneshots: 'push.device.list_oneshots',
  deviceGetOneshot: 'push.device.get_oneshot',
  deviceSubmitOneshot: 'push.device.submit_oneshot',
  submitForm: 'push.submission.create',
  listFormSubmissions: 'push.submission.list_for_form',
  /** v3: pages of dispatches (oneshots in their later name), scheduled ones included. */
  listDeviceDispatches: 'push.dispatch.list_for_device',
  listOrganizationDispatches: 'push.dispatch.list_for_organization',
  getDispatch: 'push.dispatch.get',
  /** v3 `DELETE /api/v3/dispatches/<id>`: revoke by id alone. */
  revokeDispatch: 'push.dispatch.revoke',
  /** Bulk dispatch (a Formcast extension): up to 1,000 creates in one command, each atomic alone. */
  createDispatches: 'push.dispatch.create_bulk',
  /** v3 `GET /api/v3/submissions/<id>`: one submission of the organization, as its XML instance shows it. */
  getSubmission: 'push.submission.get',
  /** Submission images (submission-images.ts, where their payloads are). */
  saveSubmissionImage: 'push.submission_image.save',
  getSubmissionImageMd5: 'push.submission_image.md5',
  downloadSubmissionImage: 'push.submission_image.download',
  /** Delivery's question for a document's image (submission-images.ts): one image of a submission. */
  getSubmissionImage: 'push.submission.image.get',
  /** report.md: what the performance metric report shows of submissions (reports.ts). */
  submissionMetrics: 'push.submission.report_metrics',
} as const;

const id = z.number().int().positive();
/** A device path parameter: identifier or numeric id. */
const deviceRef = z.string().min(1).max(255);
const description = z.string().max(255, 'must be at most 255 characters');
/** Required, but may be `{}`; checked in depth against the template's questions by the push domain. */
const payload = z.custom<unknown>((v) => v !== undefined, { message: 'is required (it may be {})' });

const isoTime = z.iso.datetime({ offset: true, error: 'must be an ISO 8601 time with its offset, e.g. 2024-05-04T11:25:49Z' });

/**
 * The later generations' dispatch fields (observed-behaviour, "Later generations of the push
 * API"), on every create and update path. `scheduled_at`: when the device receives it; a
 * past time means now. `location`: `lat=<-90..90>, long=<-180..180>`. `geofence_radius`:
 * metres, positive. The gateway passes them as the integrator spelled them (strings from
 * XML); these schemas check them, so messages name the field.
 */
export const dispatchLocation = z
  .string()
  .regex(/^\s*lat\s*=\s*-?\d+(\.\d+)?\s*,\s*long\s*=\s*-?\d+(\.\d+)?\s*$/, 'must be "lat=<latitude>, long=<longitude>", e.g. "lat=35.77, long=-78.63"')
  .refine((v) => {
    const [lat, long] = v.split(',').map((part) => Number(part.split('=')[1]));
    return Math.abs(lat!) <= 90 && Math.abs(long!) <= 180;
  }, 'latitude must be within -90..90 and longitude within -180..180');
export const dispatchFields = {
  scheduled_at: isoTime.optional(),
  location: dispatchLocation.optional(),
  address: z.string().max(255, 'must be at most 255 characters').optional(),
  geofence_radius: z.coerce.number({ error: 'must be a number of metres' }).positive('must be a positive number of metres').max(20_000_000).optional(),
};

/** Field names as the API spells them, so messages name what the integrator sent. */
export const createOneshotPayload = z.object({
  deviceRef,
  form_namespace: z.string({ error: 'is required' }).min(1, 'is required').max(1000),
  form_name: z.string().min(1).max(255).optional(),
  form_description: description.optional(),
  payload,
  ...dispatchFields,
  /** XML bodies cannot tell one repetition of a group from a subform; be lenient there. */
  fromXml: z.boolean().default(false),
  /**
   * The v2/v3 creates: answer the dispatch's view beside the created one (`dispatch`), so the
   * gateway needs no `push.dispatch.get` after the create (issue 24). A create answered
   * again for its Idempotency-Key answers without it.
   */
  answerWithDispatch: z.boolean().optional(),
});

export type CreateOneshotInput = z.infer<typeof createOneshotPayload>;

export const updateOneshotPayload = z.object({
  deviceRef,
  oneshotId: id,
  form_name: z.string().min(1).max(255).optional(),
  form_description: description.optional(),
  payload,
  ...dispatchFields,
  /** As for a create: XML cannot tell one repetition of a group from a subform. */
  fromXml: z.boolean().default(false),
});

/** The most items one bulk dispatch request may carry. */
export const bulkDispatchMaxItems = 1000;

/**
 * `POST /api/v3/dispatches/bulk`: each item as a create on its own (`device` is the
 * device's identifier), validated and created alone: one bad item fails alone. The gateway
 * does not validate items; the push service answers one `BulkDispatchResult` per item, in order.
 */
export const createDispatchesPayload = z.object({
  dispatches: z
    .array(z.record(z.string(), z.unknown()), { error: 'dispatches: must be an array of dispatches' })
    .min(1, 'dispatches: give at least one')
    .max(bulkDispatchMaxItems, `dispatches: at most ${bulkDispatchMaxItems} in one request`),
  fromXml: z.boolean().default(false),
});

/** One item's outcome, in the order given: 202 and the id, or the status and error the item would get alone. */
export type BulkDispatchResult =
  | { status: 202; id: number; namespace: string; name: string }
  | { status: number; error: { code: string; message: string } };

/** Every v3 list is paged: `page` from 1, `items` per page (default 100). */
export const dispatchesDefaultItems = 100;
export const dispatchesMaxItems = 1000;
const dispatchPage = {
  page: z.number().int().min(1).default(1),
  items: z.number().int().min(1).max(dispatchesMaxItems, `must be at most ${dispatchesMaxItems}`).default(dispatchesDefaultItems),
};
/** A device's dispatches not yet ended (outstanding, scheduled ones included), oldest first. */
export const listDeviceDispatchesPayload = z.object({ deviceRef, ...dispatchPage });
/** The organization's dispatches not yet ended, scheduled ones included, oldest first. */
export const listOrganizationDispatchesPayload = z.object({ ...dispatchPage });
/**
 * One dispatch of the organization, in any state; `include_inputs` adds its payload as
 * `inputs`; with `deviceRef` (the device-scoped show), a dispatch of another device is unknown.
 */
export const getDispatchPayload = z.object({ dispatchId: id, include_inputs: z.boolean().default(false), deviceRef: deviceRef.optional() });
export const revokeDispatchPayload = z.object({ dispatchId: id });

/**
 * Which part of an outstanding listing to answer (all three optional; none: the whole list
 * in one reply, as before): the oneshots with an id above `afterId` (the streamed listings'
 * next page), `offset` of them passed over (a client's `page`), at most `limit`.
 */
export const oneshotListWindow = {
  afterId: z.number().int().min(0).optional(),
  offset: z.number().int().min(0).max(1_000_000_000).optional(),
  limit: z.number().int().min(1).max(1000).optional(),
};
export type OneshotListWindow = { afterId?: number; offset?: number; limit?: number };
/** A page of the listings a client pages (`page`, `per_page`): 100 by default, at most 1000. */
export const oneshotsDefaultPerPage = 100;
export const oneshotsMaxPerPage = 1000;
/** The page size the gateway streams the device-side listing in (payloads included: smaller pages). */
export const deviceSideOneshotsPageLimit = 100;

export const deviceOneshotsPayload = z.object({ deviceRef, ...oneshotListWindow });
export const deviceOneshotPayload = z.object({ deviceRef, oneshotId: id });
export const findOutstandingOneshotPayload = deviceOneshotPayload;
/** The largest `limit` a `listOrganizationOneshots` command may give. */
export const organizationOneshotsMaxLimit = 1000;
/**
 * The `limit` the gateway gives: pages of 250 kept the embedded process's peak RSS ~25 MB
 * lower than pages of 1000 while listing 10,000, at the same CPU (issue 7, S3).
 */
export const organizationOneshotsPageLimit = 250;
/**
 * The organization listing, one page at a time: the outstanding oneshots with an id above
 * `afterId`, ascending, at most `limit`. A page shorter than `limit` is the last. Without
 * `limit`, every one (a long list then travels as one reply).
 */
export const organizationOneshotsPayload = z.object({
  afterId: z.number().int().min(0).optional(),
  offset: oneshotListWindow.offset,
  limit: z.number().int().min(1).max(organizationOneshotsMaxLimit).optional(),
});

/** Device-side commands act for the authenticated device (its id comes from its secret). */
export const deviceSideListPayload = z.object({ deviceId: id, ...oneshotListWindow });
/** `includeEnded`: its own completed or revoked oneshots too (what a submission's path may name, to answer 409). */
export const deviceSideGetPayload = z.object({ deviceId: id, oneshotId: id, includeEnded: z.boolean().default(false) });
export const deviceSideSubmitPayload = z.object({ deviceId: id, oneshotId: id, answers: z.unknown() });

/** A time filter: an ISO 8601 time with its offset, or a date (its midnight, UTC). */
const isoTimeOrDate = z.union([z.iso.datetime({ offset: true }), z.iso.date()], {
  error: 'must be an ISO 8601 date or time with its offset, e.g. 2024-05-04 or 2024-05-04T11:25:49Z',
});

/**
 * A submission of any form of the device's groups (or of a oneshot pushed to it). The form
 * by id (the device side's path) or by namespace (an XML instance's `xmlns`): one of the two.
 * Field names as the API spells them, so messages name what the client sent.
 */
export const submitFormPayload = z
  .object({
    /** The device side: the authenticated device's id; the API: the path's identifier or id. */
    deviceRef,
    formId: id.optional(),
    form_namespace: z.string().min(1).max(1000).optional(),
    /** The outstanding oneshot this submission completes. */
    oneshot_id: id.nullable().default(null),
    /** The client's own id for the submission: the same one again is the same submission. */
    submission_identifier: z.string().min(1).max(255).nullable().default(null),
    /** When the user submitted it, as the device says; default: when it is received. */
    submitted_at: isoTime.optional(),
    /** Checked in depth against the form's questions by the push domain. */
    answers: z.custom<unknown>((v) => v !== undefined, { message: 'is required' }),
    /** XML cannot tell one repetition of a group from a subform; be lenient there. */
    fromXml: z.boolean().default(false),
    /**
     * Only these destinations of the form get the submission (the v3 API's `destination_ids`);
     * absent: every active one. The gateway checks they are the form's before sending.
     */
    destination_ids: z.array(id).min(1).max(100).optional(),
  })
  .refine((p) => (p.formId === undefined) !== (p.form_namespace === undefined), { message: 'name the form by formId or by form_namespace' });

/** The submissions database API's pages: `per_page` at most this, 30 when not given (submission.md). */
export const submissionsMaxPerPage = 1000;
export const submissionsDefaultPerPage = 30;
/** `submission_ids`: at most this many ids in one query. */
export const submissionIdsMax = 1000;

/** `GET /api/forms/<form_id>/device_magic_database.json`: a page of the form's submissions, oldest first, filtered. */
export const listFormSubmissionsPayload = z.object({
  formId: id,
  page: z.number().int().min(1).default(1),
  per_page: z.number().int().min(1).max(submissionsMaxPerPage, `must be at most ${submissionsMaxPerPage}`).default(submissionsDefaultPerPage),
  /** The submitting device's identifier. */
  device_id: z.string().min(1).max(255).optional(),
  /** Submitted strictly after this time. */
  submitted_after: isoTimeOrDate.optional(),
  /** Submitted strictly before this time. */
  submitted_before: isoTimeOrDate.optional(),
  /** submission.md: "submissions made after date": at or after it (a date: from its midnight, UTC). */
  from_date: isoTimeOrDate.optional(),
  /** submission.md: "submissions made before date": at or before it (a date: to the end of that day, UTC). */
  to_date: isoTimeOrDate.optional(),
  /** submission.md: only these submission ids (not the clients' submission identifiers). */
  submission_ids: z.array(id).min(1).max(submissionIdsMax, `at most ${submissionIdsMax} ids`).optional(),
  /** submission.md: a free text search, matched case-insensitively in the answers' text. */
  search: z.string().min(1).max(255).optional(),
});

export type ListFormSubmissionsInput = z.infer<typeof listFormSubmissionsPayload>;

/** One submission of the organization by its id (`GET /api/v3/submissions/<id>`). */
export const getSubmissionPayload = z.object({ submissionId: id });

/** `oneshot_list` of spec 2.7. */
export interface OneshotCreatedView {
  id: number;
  namespace: string;
  name: string;
}

/** The create's answer when asked `answerWithDispatch`: the dispatch's view too, unless a replay. */
export interface CreatedDispatchAnswer extends OneshotCreatedView {
  dispatch?: DispatchView;
}

/** An outstanding pushed form, spec 2.8 (snake_case; XML dasherizes). */
export interface OutstandingOneshotView {
  description: string;
  device_id: number;
  id: number;
  name: string;
  namespace: string;
  organization_id: number;
}

/**
 * A dispatch as the v3 API shows it (observed-behaviour): `version` and
 * `parent_form_version` are the template's version when it was dispatched ("1.00"…);
 * `scheduled_at` is null when it was sent at once. XML: `<dispatch>` with dashed names.
 */
export interface DispatchView {
  id: number;
  name: string;
  namespace: string;
  version: string;
  organization_id: number;
  device_id: number;
  description: string;
  parent_form_id: number;
  parent_form_version: string;
  created_at: string;
  updated_at: string;
  scheduled_at: string | null;
  location: string | null;
  address: string | null;
  geofence_radius: number | null;
  /** Whom it is assigned to, as the dispatch authors list them: the device's identifier (Formcast has no web users). */
  author_identifier: string;
  author_type: 'Device';
  /** With `include_inputs`: question -> value, as pushed. */
  inputs?: Record<string, unknown>;
}

/** A page of v3 dispatches. */
export interface DispatchPageView {
  dispatches: DispatchView[];
  page: number;
  items: number;
  total_count: number;
}

/** What a device sees of its own oneshot: enough to open the form pre-filled. */
export interface DeviceOneshotView {
  id: number;
  name: string;
  description: string;
  namespace: string;
  form_namespace: string;
  payload: Record<string, unknown>;
  created_at: string;
  updated_at: string;
}

/** What `POST /device/oneshots/<id>/submission` answers. */
export interface SubmissionView {
  oneshot_id: number;
  submitted_at: string;
}

/** A stored submission, as the device side's form submission answers it. */
export interface FormSubmissionView {
  id: number;
  form_id: number;
  oneshot_id: number | null;
  submission_identifier: string | null;
  submitted_at: string;
  received_at: string;
}

/** A metadata value of the submissions database API, with its type, as the real product shows them. */
export interface TypedValue<T> {
  value: T;
  type: 'string' | 'integer' | 'datetime';
}

/**
 * One answer in the submissions database API (submission.md): its value and the question's
 * type ("text", "date"…). A subform's value is an object of such answers, a group's an array
 * of them (one object per repetition).
 */
export interface TypedAnswer {
  value: unknown;
  type: string;
}

/** One submission in the submissions database API, in submission.md's shape. */
export interface SubmissionRecordView {
  form: { id: number; name: string; version: string };
  metadata: {
    device_id: TypedValue<string>;
    user_id: TypedValue<null>;
    username: TypedValue<string>;
    submitted_at: TypedValue<string>;
    received_at: TypedValue<string>;
    /** The id as a string, as the documentation shows it ("233"). */
    submission_id: TypedValue<string>;
    /** The client's own id for the submission; null when it gave none. */
    device_submission_identifier: TypedValue<string | null>;
    form_name: { value: string };
    form_namespace: { value: string };
    form_version: { value: string };
    /** The submitting device's custom attributes, as the documentation's `{"value": {…}}`. */
    device: { value: Record<string, string> };
  };
  /** Question identifier -> `{"value": …, "type": <question type>}`. */
  submission: Record<string, TypedAnswer>;
}

/** A page of the submissions database API, in the real product's shape. */
export interface SubmissionDatabasePageView {
  per_page: number;
  current_page: number;
  total_pages: number;
  current_count: number;
  total_count: number;
  submissions: SubmissionRecordView[];
}

/**
 * A submission as its XML instance shows it (`GET /api/v3/submissions/<id>`): the form and
 * device it names, and its answers in the form's question order (subforms as objects,
 * groups as arrays of repetitions).
 */
export interface SubmissionInstanceView {
  id: number;
  form_id: number;
  form_name: string;
  form_namespace: string;
  /** "1.00"…; '' for submissions kept from before versions were recorded. */
  form_version: string;
  device_identifier: string;
  /** The client's own id; null when it gave none. */
  submission_identifier: string | null;
  /** When the device says the user submitted it. */
  submitted_at: string;
  /** When Formcast stored it. */
  received_at: string;
  answers: Record<string, unknown>;
}
