import type { ListFormSubmissionsInput } from '@formcast/contracts';

/** Which of a form's submissions to read: filters, then a page of them (ascending by id). */
export interface SubmissionQuery {
  formId: number;
  deviceIdentifier?: string | undefined;
  /** ISO 8601 UTC, as stored: strictly after. */
  submittedAfter?: string | undefined;
  /** ISO 8601 UTC, as stored: strictly before. */
  submittedBefore?: string | undefined;
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

/** The database API's parameters as a store query; times in the stored format, so they compare as stored ones do. */
export function submissionQuery(input: ListFormSubmissionsInput): SubmissionQuery {
  return {
    formId: input.formId,
    deviceIdentifier: input.device_id,
    submittedAfter: storedTime(input.submitted_after),
    submittedBefore: storedTime(input.submitted_before),
    offset: (input.page - 1) * input.per_page,
    limit: input.per_page,
  };
}
