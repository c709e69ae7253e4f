import { isMongoDuplicateKey } from '@formcast/storage';
import type { DeliveryDocument } from '../domain/records';
import type { DeliveryDocumentStore } from './delivery-store';
import { MongoDeliveryPart } from './mongo-delivery-part';
import type { DeliveryDoc, DeliveryDocumentDoc } from './mongo-models';
import { deliveryNotFound } from './store-errors';

/** The document each delivery carried (PDF, .docx, text), kept as sent: part of MongoDeliveryStore. */
export class MongoDeliveryDocuments extends MongoDeliveryPart implements DeliveryDocumentStore {
  async saveDocument(deliveryId: number, document: DeliveryDocument): Promise<DeliveryDocument> {
    await this.ready;
    const delivery = await this.models.Delivery.findOne({ _id: deliveryId }, { destinationId: 1 }).lean<Pick<DeliveryDoc, 'destinationId'>>();
    if (!delivery) throw deliveryNotFound(deliveryId);
    const doc: DeliveryDocumentDoc = {
      _id: deliveryId,
      destinationId: delivery.destinationId,
      ...document,
      message: JSON.stringify(document.message),
      createdAt: new Date(document.createdAt),
    };
    // The first kept wins: an upsert that only inserts.
    const { _id: _key, ...fields } = doc;
    try {
      await this.models.DeliveryDocument.updateOne({ _id: deliveryId }, { $setOnInsert: fields }, { upsert: true });
    } catch (error) {
      // Two upserts at once: one inserted, the other meets its key; the first kept wins either way.
      if (!isMongoDuplicateKey(error)) throw error;
    }
    return (await this.getDocument(deliveryId))!;
  }

  async getDocument(deliveryId: number): Promise<DeliveryDocument | null> {
    await this.ready;
    const doc = await this.models.DeliveryDocument.findOne({ _id: deliveryId }).lean<DeliveryDocumentDoc>();
    if (!doc) return null;
    return {
      message: JSON.parse(doc.message),
      contentType: doc.contentType,
      fileName: doc.fileName, bytes: Buffer.from(doc.bytes as unknown as Uint8Array), createdAt: doc.createdAt.toISOString() };
  }
}
