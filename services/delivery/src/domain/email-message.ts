import { isEmailAddress, splitAddresses, type EmailTransportParameters, type SubmissionReceivedPayload } from '@formcast/contracts';
import { answerText, documentModel, documentText, templateContext, type FormQuestion } from './document-model';
import { jsonBody } from './json-body';
import type { Destination } from './records';
import { xmlBody } from './xml-body';

/** A delivery by email keeps the submission itself: the document is rendered from it at the first attempt. */
export const submissionContentType = 'application/vnd.formcast.submission+json';

/** The format of an email destination, as the render worker takes it. */
export type EmailFormat = 'text_format' | 'pdf_format' | 'word_format' | 'json_format' | 'xml_format';

/** The answer of a question anywhere in the submission (the first found, depth first), as text. */
function findAnswer(answers: Record<string, unknown>, question: string): unknown {
  if (question in answers) return answers[question];
  for (const value of Object.values(answers)) {
    const nested = Array.isArray(value) ? value : value !== null && typeof value === 'object' ? [value] : [];
    for (const entry of nested) {
      if (entry !== null && typeof entry === 'object' && !Array.isArray(entry)) {
        const found = findAnswer(entry as Record<string, unknown>, question);
        if (found !== undefined) return found;
      }
    }
  }
  return undefined;
}

/**
 * Who gets the email: `to_addresses`, and the addresses answered in `to_address_form_field`
 * (those that are addresses). Formcast devices have no custom attributes, so
 * `to_address_device_attribute` adds none.
 */
export function recipients(parameters: EmailTransportParameters, submission: SubmissionReceivedPayload): string[] {
  const found = new Set(splitAddresses(parameters.to_addresses ?? ''));
  if (parameters.to_address_form_field) {
    for (const address of splitAddresses(answerText(findAnswer(submission.answers, parameters.to_address_form_field)))) {
      if (isEmailAddress(address)) found.add(address);
    }
  }
  return [...found];
}

/** What the render worker needs for one delivery by email (see render/render-pool.ts RenderTask). */
export function renderTaskParts(submission: SubmissionReceivedPayload, destination: Destination, outline: FormQuestion[] = []) {
  const parameters = destination.formatParameters as Record<string, unknown>;
  const transport = destination.transport.parameters as EmailTransportParameters;
  const model = documentModel(submission, { locationInCoordinates: parameters['location_in_coordinate_format'] === true, outline });
  const format = destination.format as EmailFormat;
  return {
    format,
    formatParameters: parameters,
    model,
    context: templateContext(submission),
    defaultText: documentText(model),
    defaultSubject: `${submission.formName}: submission ${submission.submissionId} from ${submission.deviceIdentifier}`,
    defaultFileName: `${submission.formName.replace(/[^A-Za-z0-9._-]+/g, '_').slice(0, 100) || 'submission'}-${submission.submissionId}`,
    subjectTemplate: transport.subject_template ?? null,
    bodyTemplate: transport.body_template ?? null,
    rawBody: format === 'json_format' ? jsonBody(submission) : format === 'xml_format' ? xmlBody(submission) : null,
    createdAt: submission.receivedAt,
  };
}
