import { Schema, type Connection, type Model } from 'mongoose';
import { registeredModel, requiredField } from '@formcast/storage';

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
    _id: requiredField(Number),
    destinationId: requiredField(Number),
    message: requiredField(String),
    contentType: requiredField(String),
    fileName: requiredField(String),
    bytes: requiredField(Buffer),
    createdAt: requiredField(Date),
  },
  { versionKey: false },
);

// A destination's documents, removed with it.
deliveryDocumentSchema.index({ destinationId: 1 });

export function deliveryDocumentModel(connection: Connection): Model<DeliveryDocumentDoc> {
  return registeredModel(connection, 'DeliveryDocument', deliveryDocumentSchema, 'delivery_documents');
}
