import { Schema, type Connection, type Model } from 'mongoose';
import { registeredModel, requiredField } from '@formcast/storage';
import type { Envelope } from '@formcast/contracts';

/**
 * An event written with the change it announces, waiting for the relay. `_id` is its seq,
 * from the `outbox` counter, taken inside the change's transaction.
 */
export interface OutboxDoc {
  _id: number;
  event: Envelope;
}

export const outboxSchema = new Schema<OutboxDoc>(
  {
    _id: requiredField(Number),
    event: requiredField(Schema.Types.Mixed),
  },
  { versionKey: false, minimize: false },
);

// unpublishedEvents (ascending by seq) and markPublished ({ _id: { $in } }): the _id index
// serves both; no other index.

export function outboxModel(connection: Connection): Model<OutboxDoc> {
  return registeredModel(connection, 'OutboxEvent', outboxSchema, 'outbox');
}
