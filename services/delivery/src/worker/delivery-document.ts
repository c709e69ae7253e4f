import type { Bus } from '@formcast/bus';
import { createEnvelope, directoryCommands, resourceCommands } from '@formcast/contracts';
import { isAppError, nullIfNotFound } from '@formcast/platform';
import { formOutline, type FormQuestion } from '../domain/document-model';
import { renderTaskParts } from '../domain/email-message';
import type { Delivery, DeliveryDocument, Destination } from '../domain/records';
import type { RenderPool } from '../render/render-pool';
import type { DeliveryStore } from '../store';
import { submissionImages } from './submission-images';

export interface DocumentDeps {
  store: DeliveryStore;
  render: RenderPool;
  bus: Bus;
  commandTimeoutMs: number;
  now: () => number;
}

/** Why a document cannot be made, whatever the number of attempts: the attempt is rejected (no retry). */
export class DocumentRefused extends Error {}

/** word_format's template: the resource's .docx, asked of the resources service. */
async function wordTemplate(deps: DocumentDeps, delivery: Delivery, resourceId: number): Promise<Uint8Array> {
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
async function outlineOf(deps: DocumentDeps, delivery: Delivery): Promise<FormQuestion[]> {
  const definition = await nullIfNotFound(
    deps.bus.request(
      createEnvelope(directoryCommands.getForm, { formId: delivery.formId }, { orgId: delivery.orgId, requestId: `delivery-${delivery.id}` }),
      { timeoutMs: deps.commandTimeoutMs },
    ),
  );
  return definition === null ? [] : formOutline(definition);
}

/**
 * The delivery's document and email: the one kept at an earlier attempt, else rendered now
 * on a render worker and kept (the first kept wins), so every attempt sends the same. Images
 * the submission names but does not carry are asked of push when the render says it needs
 * them, and it renders again with them.
 */
export async function documentOf(deps: DocumentDeps, delivery: Delivery, destination: Destination): Promise<DeliveryDocument> {
  const kept = await deps.store.documents.getDocument(delivery.id);
  if (kept) return kept;
  const parts = renderTaskParts(delivery.body, destination, await outlineOf(deps, delivery));
  const templateId = destination.format === 'word_format' ? (destination.formatParameters as { template_resource_id?: number | null }).template_resource_id : null;
  const template = templateId ? await wordTemplate(deps, delivery, templateId) : null;
  let rendered = await deps.render.render({ ...parts, wordTemplate: template });
  if ('wantImages' in rendered) {
    const images = await submissionImages(deps.bus, delivery, rendered.wantImages, deps.commandTimeoutMs);
    rendered = await deps.render.render({ ...parts, wordTemplate: template, images });
    if ('wantImages' in rendered) throw new DocumentRefused('the render asked for images twice');
  }
  const images = rendered.images.map((image) => ({ fileName: image.fileName, contentType: image.contentType, cid: image.cid, base64: image.bytes.toString('base64') }));
  return deps.store.documents.saveDocument(delivery.id, {
    message: {
      subject: rendered.subject,
      text: rendered.text,
      html: rendered.html,
      attach: rendered.attach,
      answeredTo: rendered.answeredTo,
      device: rendered.device,
      ...(images.length > 0 ? { images } : {}),
    },
    contentType: rendered.document.contentType,
    fileName: rendered.document.fileName,
    bytes: rendered.document.bytes,
    createdAt: new Date(deps.now()).toISOString(),
  });
}
