import type { SubmissionReceivedPayload } from '@formcast/contracts';
import { submissionInstanceXml } from '@formcast/xml-writing';

/**
 * The `xml_format` body: the submission's XML instance, byte for byte what
 * `GET /api/v3/submissions/<id>` answers (one writer, @formcast/xml-writing). The event
 * carries the answers in the form's question order, as that answer shows them.
 */
export function xmlBody(submission: SubmissionReceivedPayload): string {
  return submissionInstanceXml({ ...submission, submissionIdentifier: submission.clientSubmissionId });
}
