import type { Bus } from '@formcast/bus';
import { createEnvelope, directoryCommands, resourceCommands, type EmailTransportParameters } from '@formcast/contracts';
import { isAppError } from '@formcast/platform';
import { smtpResult, type AttemptResult } from '../domain/attempt-outcome';
import { formOutline, type FormQuestion } from '../domain/document-model';
import { recipients, renderTaskParts } from '../domain/email-message';
import type { Delivery, DeliveryDocument, Destination } from '../domain/records';
import { RenderError, type RenderPool } from '../render/render-pool';
import type { EmailSender } from '../sender/email-sender';
import type { DeliveryStore, NewAttempt } from '../store';

export interface EmailAttemptDeps {
  store: DeliveryStore;
  render: RenderPool;
  email: EmailSender;
  bus: Bus;
  commandTimeoutMs: number;
  /** DELIVERY_MAIL_FROM */
  mailFrom: string;
  now: () => number;
}

/** Why a document cannot be made, whatever the number of attempts: the attempt is rejected (no retry). */
class DocumentRefused extends Error {}

/** word_format's template: the resource's .docx, asked of the resources service. */
async function wordTemplate(deps: EmailAttemptDeps, delivery: Delivery, resourceId: number): Promise<Uint8Array> {
  try {
    const answer = await deps.bus.requestWithAttachment(
      createEnvelope(resourceCommands.downloadResource, { resourceId }, { orgId: delivery.orgId, requestId: `delivery-${delivery.id}` }),
      { timeoutMs: deps.commandTimeoutMs },
    );
    if (!answer.attachment) throw new DocumentRefused(`word_format.template_resource_id: resource ${resourceId} has no file`);
    return new Uint8Array(answer.attachment);
  } catch (error) {
    if (isAppError(error) && error.code === 'not_found') throw new DocumentRefused(`word_format.template_resource_id: resource ${resourceId} does not exist`);
    throw error;
  }
}

/** The form's questions (titles, order, types) from the directory; none when it cannot say (the form deleted meanwhile). */
async function outlineOf(deps: EmailAttemptDeps, delivery: Delivery): Promise<FormQuestion[]> {
  try {
    const definition = await deps.bus.request(
      createEnvelope(directoryCommands.getForm, { formId: delivery.formId }, { orgId: delivery.orgId, requestId: `delivery-${delivery.id}` }),
      { timeoutMs: deps.commandTimeoutMs },
    );
    return formOutline(definition);
  } catch (error) {
    if (isAppError(error) && error.code === 'not_found') return [];
    throw error;
  }
}

/**
 * The delivery's document and email: the one kept at an earlier attempt, else rendered now
 * on a render worker and kept (the first kept wins), so every attempt sends the same.
 */
async function documentOf(deps: EmailAttemptDeps, delivery: Delivery, destination: Destination): Promise<DeliveryDocument> {
  const kept = await deps.store.getDocument(delivery.id);
  if (kept) return kept;
  const parts = renderTaskParts(delivery.body, destination, await outlineOf(deps, delivery));
  const templateId = destination.format === 'word_format' ? (destination.formatParameters as { template_resource_id?: number | null }).template_resource_id : null;
  const template = templateId ? await wordTemplate(deps, delivery, templateId) : null;
  const rendered = await deps.render.render({ ...parts, wordTemplate: template });
  return deps.store.saveDocument(delivery.id, {
    message: { subject: rendered.subject, text: rendered.text, html: rendered.html, attach: rendered.attach, answeredTo: rendered.answeredTo },
    contentType: rendered.document.contentType,
    fileName: rendered.document.fileName,
    bytes: rendered.document.bytes,
    createdAt: new Date(deps.now()).toISOString(),
  });
}

/** One attempt of an email delivery: render (once), then send; the SMTP reply is the attempt's status. */
export async function attemptEmail(
  deps: EmailAttemptDeps,
  delivery: Delivery,
  destination: Destination,
  attemptedAt: string,
): Promise<{ result: AttemptResult; attempt: NewAttempt }> {
  const started = performance.now();
  const failed = (kind: 'rejected' | 'failed', error: string) => ({
    result: { kind } as AttemptResult,
    attempt: { attemptedAt, statusCode: null, durationMs: Math.round(performance.now() - started), responseBody: null, error: error.slice(0, 1024) },
  });
  const parameters = destination.transport.parameters as EmailTransportParameters;
  let document: DeliveryDocument;
  try {
    document = await documentOf(deps, delivery, destination);
  } catch (error) {
    if (error instanceof RenderError || error instanceof DocumentRefused) return failed('rejected', `the document could not be made: ${error.message}`);
    return failed('failed', `the document could not be made now: ${(error as Error).message}`);
  }
  const to = recipients(parameters, document.message.answeredTo ?? null);
  if (to.length === 0) return failed('rejected', 'no recipient: to_addresses is empty and to_address_form_field answered no address');
  const answer = await deps.email.send(parameters, {
    from: { name: parameters.from_name ?? null, address: parameters.from_address ?? deps.mailFrom },
    to,
    subject: document.message.subject,
    text: document.message.text,
    html: document.message.html,
    attachment: document.message.attach ? { fileName: document.fileName, contentType: document.contentType, bytes: document.bytes } : null,
    messageId: delivery.webhookId,
  });
  return {
    result: smtpResult(answer.statusCode, answer.error),
    attempt: { attemptedAt, statusCode: answer.statusCode, durationMs: Math.round(performance.now() - started), responseBody: answer.responseBody, error: answer.error },
  };
}
