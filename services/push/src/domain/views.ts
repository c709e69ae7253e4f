import type {
  DeviceOneshotView,
  DispatchPageView,
  DispatchView,
  FormSubmissionView,
  OneshotCreatedView,
  OutstandingOneshotView,
  SubmissionDatabasePageView,
  SubmissionRecordView,
  TypedAnswer,
  SubmissionView,
} from '@formcast/contracts';
import type { SubmissionPage } from './submission-query';
import type { DispatchPage, DispatchSummary, Oneshot, OneshotSummary, Submission } from './records';

export function toCreatedView(o: Oneshot): OneshotCreatedView {
  return { id: o.id, namespace: o.namespace, name: o.name };
}

export function toOutstandingView(o: OneshotSummary): OutstandingOneshotView {
  return { description: o.description, device_id: o.deviceId, id: o.id, name: o.name, namespace: o.namespace, organization_id: o.orgId };
}

export function toDeviceOneshotView(o: Oneshot): DeviceOneshotView {
  return {
    id: o.id,
    name: o.name,
    description: o.description,
    namespace: o.namespace,
    form_namespace: o.templateNamespace,
    payload: o.payload,
    created_at: o.createdAt,
    updated_at: o.updatedAt,
  };
}

/** A dispatch as the v3 API shows it; its payload as `inputs` when asked for. */
export function toDispatchView(d: DispatchSummary, inputs?: Record<string, unknown>): DispatchView {
  return {
    id: d.id,
    name: d.name,
    namespace: d.namespace,
    version: d.formVersion,
    organization_id: d.orgId,
    device_id: d.deviceId,
    description: d.description,
    parent_form_id: d.formId,
    parent_form_version: d.formVersion,
    created_at: d.createdAt,
    updated_at: d.updatedAt,
    scheduled_at: d.scheduledAt,
    location: d.location,
    address: d.address,
    geofence_radius: d.geofenceRadius,
    author_identifier: d.deviceIdentifier,
    author_type: 'Device',
    ...(inputs === undefined ? {} : { inputs }),
  };
}

/** A page of a v3 listing; `page` numbered from 1, `items` as asked. */
export function toDispatchPageView({ total, dispatches }: DispatchPage, page: number, items: number): DispatchPageView {
  return { dispatches: dispatches.map((d) => toDispatchView(d)), page, items, total_count: total };
}

/** What `POST /device/oneshots/<id>/submission` answers: the oneshot it completed. */
export function toSubmissionView(s: Submission): SubmissionView {
  return { oneshot_id: s.oneshotId!, submitted_at: s.submittedAt };
}

export function toFormSubmissionView(s: Submission): FormSubmissionView {
  return {
    id: s.id,
    form_id: s.formId,
    oneshot_id: s.oneshotId,
    submission_identifier: s.clientSubmissionId,
    submitted_at: s.submittedAt,
    received_at: s.receivedAt,
  };
}

/** "2016-05-04 09:25:49 +00:00": the real product's datetime format, in UTC. */
export function productTime(iso: string): string {
  const utc = new Date(iso).toISOString();
  return `${utc.slice(0, 10)} ${utc.slice(11, 19)} +00:00`;
}

interface TypedQuestion {
  type: string;
  children: Map<string, TypedQuestion>;
}

/** The form's questions by identifier, with their types and their children's (subforms, groups). */
function questionTypes(questions: unknown): Map<string, TypedQuestion> {
  const index = new Map<string, TypedQuestion>();
  if (!Array.isArray(questions)) return index;
  for (const q of questions) {
    if (typeof q !== 'object' || q === null) continue;
    const { identifier, type, children } = q as { identifier?: unknown; type?: unknown; children?: unknown };
    if (typeof identifier !== 'string' || typeof type !== 'string') continue;
    index.set(identifier, { type, children: questionTypes(children) });
  }
  return index;
}

/** An answer named by no question of the form (it changed since): its type is "text", as a plain answer's. */
const untyped: TypedQuestion = { type: 'text', children: new Map() };

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Answers as submission.md shows them: `{"value", "type"}`, a subform's value an object of typed answers, a group's an array of them. */
function typedAnswers(answers: Record<string, unknown>, questions: Map<string, TypedQuestion>): Record<string, TypedAnswer> {
  const typed: Record<string, TypedAnswer> = {};
  for (const [identifier, value] of Object.entries(answers)) {
    const question = questions.get(identifier) ?? untyped;
    let shown: unknown = value;
    if (Array.isArray(value)) shown = value.map((row) => (isRecord(row) ? typedAnswers(row, question.children) : row));
    else if (isRecord(value)) shown = typedAnswers(value, question.children);
    // defineProperty: an answer named `__proto__` stays an own key, never the object's prototype.
    Object.defineProperty(typed, identifier, { value: { value: shown, type: question.type }, enumerable: true, writable: true, configurable: true });
  }
  return typed;
}

/**
 * One submission in submission.md's shape. `questions`: the form's current questions (for
 * the answers' types; null when the form is gone), `deviceAttributes`: the submitting device's
 * custom attributes ({} when it is gone).
 */
export function toSubmissionRecordView(s: Submission, questions: unknown, deviceAttributes: Record<string, string> = {}): SubmissionRecordView {
  return {
    form: { id: s.formId, name: s.formName, version: s.formVersion },
    metadata: {
      device_id: { value: s.deviceIdentifier, type: 'string' },
      user_id: { value: null, type: 'string' },
      username: { value: s.deviceOwner, type: 'string' },
      submitted_at: { value: productTime(s.submittedAt), type: 'datetime' },
      received_at: { value: productTime(s.receivedAt), type: 'datetime' },
      submission_id: { value: String(s.id), type: 'integer' },
      device_submission_identifier: { value: s.clientSubmissionId, type: 'string' },
      form_name: { value: s.formName },
      form_namespace: { value: s.formNamespace },
      form_version: { value: s.formVersion },
      device: { value: { ...deviceAttributes } },
    },
    submission: typedAnswers(s.answers, questionTypes(questions)),
  };
}

/** A page of the submissions database API; `page` numbered from 1, `perPage` as asked. */
export function toDatabasePageView(
  { total, submissions }: SubmissionPage<Submission>,
  page: number,
  perPage: number,
  questions: unknown,
  deviceAttributes: ReadonlyMap<string, Record<string, string>> = new Map(),
): SubmissionDatabasePageView {
  return {
    per_page: perPage,
    current_page: page,
    total_pages: Math.ceil(total / perPage),
    current_count: submissions.length,
    total_count: total,
    submissions: submissions.map((s) => toSubmissionRecordView(s, questions, deviceAttributes.get(s.deviceIdentifier))),
  };
}
