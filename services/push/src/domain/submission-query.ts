import type { ListFormSubmissionsInput } from '@formcast/contracts';

/** Which of a form's submissions to read: filters, then a page of them (ascending by id). */
export interface SubmissionQuery {
  formId: number;
  deviceIdentifier?: string | undefined;
  /** ISO 8601 UTC, as stored: strictly after. */
  submittedAfter?: string | undefined;
  /** ISO 8601 UTC, as stored: strictly before. */
  submittedBefore?: string | undefined;
  /** ISO 8601 UTC, as stored: at or after. */
  submittedFrom?: string | undefined;
  /** ISO 8601 UTC, as stored: at or before. */
  submittedTo?: string | undefined;
  /** Only these submission ids. */
  ids?: number[] | undefined;
  /** Text found, case-insensitively, in any answer's text (subforms and groups too). */
  search?: string | undefined;
  /** The form's answer paths (`site`, `visit.notes`…), for stores that search field by field. */
  searchPaths?: string[] | undefined;
  offset: number;
  limit: number;
}

/** What the store answers a query with. */
export interface SubmissionPage<S> {
  /** How many match the filters, over every page. */
  total: number;
  submissions: S[];
}

const storedTime = (value: string | undefined) => (value === undefined ? undefined : new Date(value).toISOString());

const dateOnly = /^\d{4}-\d{2}-\d{2}$/;

/** `to_date`: a time as given; a date alone to the last millisecond of that day (UTC), so the day is included. */
const endOfDay = (value: string | undefined) =>
  value === undefined ? undefined : dateOnly.test(value) ? new Date(Date.parse(value) + 86_400_000 - 1).toISOString() : storedTime(value);

interface PathQuestion {
  identifier?: unknown;
  children?: unknown;
}

/** Every answer path of a form's questions: `a`, and `a.b` for the questions inside a subform or group `a`. */
export function answerPaths(questions: unknown, prefix = ''): string[] {
  if (!Array.isArray(questions)) return [];
  const paths: string[] = [];
  for (const q of questions as PathQuestion[]) {
    if (typeof q !== 'object' || q === null || typeof q.identifier !== 'string') continue;
    const path = prefix + q.identifier;
    if (Array.isArray(q.children) && q.children.length > 0) paths.push(...answerPaths(q.children, `${path}.`));
    else paths.push(path);
  }
  return paths;
}

/** The database API's parameters as a store query; times in the stored format, so they compare as stored ones do. */
export function submissionQuery(input: ListFormSubmissionsInput, questions: unknown = []): SubmissionQuery {
  return {
    formId: input.formId,
    deviceIdentifier: input.device_id,
    submittedAfter: storedTime(input.submitted_after),
    submittedBefore: storedTime(input.submitted_before),
    submittedFrom: storedTime(input.from_date),
    submittedTo: endOfDay(input.to_date),
    ids: input.submission_ids,
    search: input.search,
    searchPaths: input.search === undefined ? undefined : answerPaths(questions),
    offset: (input.page - 1) * input.per_page,
    limit: input.per_page,
  };
}
