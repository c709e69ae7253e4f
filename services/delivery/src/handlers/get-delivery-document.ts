import { withAttachment, type CommandHandler, type ValueWithAttachment } from '@formcast/bus';
import { deliveryDocumentPayload, type DeliveryDocumentView } from '@formcast/contracts';
import { AppError } from '@formcast/platform';
import { submissionContentType } from '../domain/email-message';
import type { DeliveryDeps } from './deps';
import { formCommand } from './form-command';

const extensions: Record<string, string> = { 'application/json': 'json', 'application/xml': 'xml' };

/**
 * GET …/deliveries/<id>/document: what the delivery carried. An email's document as it was
 * sent (the PDF, the .docx, the text), kept at its first attempt; a webhook's body. 404 for
 * an email delivery not attempted yet, and for a dispatch (it carries a push command, no document).
 */
export const getDeliveryDocument =
  (deps: DeliveryDeps): CommandHandler =>
  async (command): Promise<ValueWithAttachment<DeliveryDocumentView>> => {
    const { orgId, input } = await formCommand(deps, command, deliveryDocumentPayload);
    const delivery = await deps.store.queue.getDelivery(orgId, input.formId, input.destinationId, input.deliveryId);
    if (delivery.contentType === submissionContentType) {
      const document = await deps.store.documents.getDocument(delivery.id);
      if (!document) throw new AppError('not_found', `Delivery ${delivery.id} has no document yet: it is made at the first attempt`);
      return withAttachment({ file_name: document.fileName, content_type: document.contentType, created_at: document.createdAt }, document.bytes);
    }
    const extension = extensions[delivery.contentType];
    if (!extension) throw new AppError('not_found', `Delivery ${delivery.id} is a dispatch: it has no document`);
    return withAttachment(
      { file_name: `submission-${delivery.submissionId}.${extension}`, content_type: delivery.contentType, created_at: delivery.createdAt },
      Buffer.from(delivery.body, 'utf8'),
    );
  };
