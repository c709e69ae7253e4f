import type { SubmissionReceivedPayload } from '@formcast/contracts';

/**
 * The real product's JSON delivery: `{"metadata":{device_id, username, submitted_at,
 * received_at, submission_id, form_name, form_namespace, form_version}, "answers":
 * {"<question>":{"value":…}}}`. A subform's value is its object of answers, a group's the
 * array of its repetitions, as stored.
 */
export function jsonBody(submission: SubmissionReceivedPayload): string {
  const answers: Record<string, { value: unknown }> = {};
  for (const [question, value] of Object.entries(submission.answers)) answers[question] = { value };
  return JSON.stringify({
    metadata: {
      device_id: submission.deviceIdentifier,
      username: submission.deviceOwner,
      submitted_at: submission.submittedAt,
      received_at: submission.receivedAt,
      submission_id: submission.submissionId,
      form_name: submission.formName,
      form_namespace: submission.formNamespace,
      form_version: submission.formVersion,
    },
    answers,
  });
}
