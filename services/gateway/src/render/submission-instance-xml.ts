import type { SubmissionInstanceView } from '@formcast/contracts';
import { submissionInstanceXml } from '@formcast/xml-writing';

/** `GET /api/v3/submissions/<id>`: the submission's XML instance, as delivery's XML webhook body writes it (one writer, @formcast/xml-writing). */
export function renderSubmissionInstanceXml(submission: SubmissionInstanceView): string {
  return submissionInstanceXml({
    formNamespace: submission.form_namespace,
    formName: submission.form_name,
    formId: submission.form_id,
    formVersion: submission.form_version,
    deviceIdentifier: submission.device_identifier,
    submissionIdentifier: submission.submission_identifier,
    submittedAt: submission.submitted_at,
    receivedAt: submission.received_at,
    answers: submission.answers,
  });
}
