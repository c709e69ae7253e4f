import { Schema, type Connection, type Model } from 'mongoose';
import { registeredModel } from '@formcast/storage';

/** A delivery's rendered document (see DeliveryStore.saveDocument), its id the delivery's. */
export interface DeliveryDocumentDoc {
  _id: number;
  destinationId: number;
  /** JSON text: the email's subject, text, html, attach. */
  message: string;
  contentType: string;
  fileName: string;
  bytes: Buffer;
  createdAt: Date;
}

export const deliveryDocumentSchema = new Schema<DeliveryDocumentDoc>(
  {
    _id: { type: Number, required: true },
    destinationId: { type: Number, required: true },
    message: { type: String, required: true },
    contentType: { type: String, required: true },
    fileName: { type: String, required: true },
    bytes: { type: Buffer, required: true },
    createdAt: { type: Date, required: true },
  },
  { versionKey: false },
);

// A destination's documents, removed with it.
deliveryDocumentSchema.index({ destinationId: 1 });

export function deliveryDocumentModel(connection: Connection): Model<DeliveryDocumentDoc> {
  return registeredModel(connection, 'DeliveryDocument', deliveryDocumentSchema, 'delivery_documents');
}
