import { randomUUID } from 'node:crypto';
import type { SubmissionReceivedPayload } from '@formcast/contracts';
import { dispatchOneshot } from './dispatch-mapping';
import { submissionContentType } from './email-message';
import { jsonBody } from './json-body';
import type { NewDelivery, SubmissionTarget } from './records';
import { xmlBody } from './xml-body';

/** A `webhook-id` as Svix gives them: `msg_` and a random id; fixed for the delivery's life. */
export function newWebhookId(): string {
  return `msg_${randomUUID().replace(/-/g, '')}`;
}

/** What the destination sends for this submission, rendered once, when the delivery is made. */
export function renderBody(submission: SubmissionReceivedPayload, destination: SubmissionTarget): { contentType: string; body: string } {
  // Rendered at the first attempt, on a worker thread (render/render-pool.ts), from the submission kept here.
  // A document (email, or a PDF or .docx over HTTP) is rendered from the submission kept here.
  if (destination.transport.type === 'email_transport' || destination.format === 'pdf_format' || destination.format === 'word_format') {
    return { contentType: submissionContentType, body: JSON.stringify(submission) };
  }
  if (destination.transport.type === 'dispatch_transport') {
    return { contentType: 'application/json', body: JSON.stringify(dispatchOneshot(submission, destination.transport.parameters)) };
  }
  if (destination.format === 'xml_format') return { contentType: 'application/xml', body: xmlBody(submission) };
  return { contentType: 'application/json', body: jsonBody(submission) };
}

export function newDelivery(submission: SubmissionReceivedPayload, destination: SubmissionTarget): NewDelivery {
  return {
    orgId: destination.orgId,
    formId: destination.formId,
    destinationId: destination.id,
    submissionId: submission.submissionId,
    webhookId: newWebhookId(),
    ...renderBody(submission, destination),
  };
}
