import type { SubmissionMetricView } from '@formcast/contracts';
import type { Submission } from './records';

/** Repetitions of repeating groups (arrays) in answers, those nested in subforms and in other repetitions included. */
export function repeatGroupCount(answers: unknown): number {
  if (Array.isArray(answers)) return answers.length + answers.reduce<number>((sum, item) => sum + repeatGroupCount(item), 0);
  if (typeof answers === 'object' && answers !== null) return Object.values(answers).reduce<number>((sum, value) => sum + repeatGroupCount(value), 0);
  return 0;
}

/** Seconds from the device's submission time to the server's receipt, to the millisecond; never negative (a device clock ahead). */
export function uploadSeconds(submission: Pick<Submission, 'submittedAt' | 'receivedAt'>): number {
  const ms = Date.parse(submission.receivedAt) - Date.parse(submission.submittedAt);
  return Number.isFinite(ms) && ms > 0 ? ms / 1000 : 0;
}

export function toSubmissionMetricView(submission: Submission): SubmissionMetricView {
  return {
    submission_id: submission.id,
    form_id: submission.formId,
    form_name: submission.formName,
    upload_seconds: uploadSeconds(submission),
    repeat_group_count: repeatGroupCount(submission.answers),
  };
}
