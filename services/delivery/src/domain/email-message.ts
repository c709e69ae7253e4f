import { isEmailAddress, splitAddresses, type EmailTransportParameters, type SubmissionReceivedPayload } from '@formcast/contracts';
import { answerText, findAnswer, type FormQuestion } from './document-model';
import { jsonBody } from './json-body';
import type { Destination } from './records';
import { xmlBody } from './xml-body';

/** A delivery by email keeps the submission itself: the document is rendered from it at the first attempt. */
export const submissionContentType = 'application/vnd.formcast.submission+json';

/** The format of an email destination, as the render worker takes it. */
export type EmailFormat = 'text_format' | 'pdf_format' | 'word_format' | 'json_format' | 'xml_format';

/**
 * Who gets the email: `to_addresses`, the addresses answered in `to_address_form_field`, and
 * those in the submitting device's custom attribute named by `to_address_device_attribute`
 * (of the last two, those that are addresses).
 */
export function recipients(parameters: EmailTransportParameters, answered: string | null, deviceAttribute: string | null = null): string[] {
  const found = new Set(splitAddresses(parameters.to_addresses ?? ''));
  for (const address of [...splitAddresses(answered ?? ''), ...splitAddresses(deviceAttribute ?? '')]) {
    if (isEmailAddress(address)) found.add(address);
  }
  return [...found];
}

/**
 * The From address: `from_address`; else the deployment's (DELIVERY_MAIL_FROM), on
 * `from_domain` when the destination gives one (`forms@formcast.test` -> `forms@acme.test`).
 */
export function senderAddress(parameters: EmailTransportParameters, mailFrom: string): string {
  if (parameters.from_address) return parameters.from_address;
  if (!parameters.from_domain) return mailFrom;
  const local = mailFrom.includes('@') ? mailFrom.slice(0, mailFrom.lastIndexOf('@')) : mailFrom;
  return `${local}@${parameters.from_domain}`;
}

/** The addresses `to_address_form_field` answered in a submission (for tests and the worker alike). */
export function answeredAddresses(answers: Record<string, unknown>, question: string | null | undefined): string | null {
  return question ? answerText(findAnswer(answers, question)) : null;
}

/**
 * What the render worker needs for one delivery by email: the submission as the delivery
 * keeps it (its JSON text, parsed and laid out on the worker, never here), the form's
 * questions, the parameters. json_format and xml_format attach the webhook bodies.
 */
export function renderTaskParts(submissionJson: string, destination: Destination, outline: FormQuestion[] = []) {
  const format = destination.format as EmailFormat;
  const transport = destination.transport.parameters as EmailTransportParameters;
  const raw = format === 'json_format' || format === 'xml_format' ? (JSON.parse(submissionJson) as SubmissionReceivedPayload) : null;
  return {
    format,
    formatParameters: destination.formatParameters as Record<string, unknown>,
    submissionJson,
    outline,
    // custom_email_content false: the default subject and body, whatever templates are kept.
    subjectTemplate: transport.custom_email_content === false ? null : (transport.subject_template ?? null),
    bodyTemplate: transport.custom_email_content === false ? null : (transport.body_template ?? null),
    toAddressFormField: transport.to_address_form_field ?? null,
    rawBody: raw ? (format === 'json_format' ? jsonBody(raw) : xmlBody(raw)) : null,
  };
}
