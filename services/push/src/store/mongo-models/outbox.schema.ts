import { Schema, type Connection, type Model } from 'mongoose';
import { registeredModel, requiredField } from '@formcast/storage';
import type { Envelope } from '@formcast/contracts';

/**
 * An event written with the change it announces, waiting for the relay. `_id` is its seq,
 * from the `outbox` counter, taken inside the change's transaction.
 */
export interface OutboxDoc {
  _id: number;
  /** The event's organization (0: none); absent on the events written before the fair relay (issue 25). */
  orgId?: number;
  event: Envelope;
}

export const outboxSchema = new Schema<OutboxDoc>(
  {
    _id: requiredField(Number),
    orgId: { type: Number },
    event: requiredField(Schema.Types.Mixed),
  },
  { versionKey: false, minimize: false },
);

// markPublished ({ _id: { $in } }) and one organization waiting (ascending by seq): the _id
// index. The fair relay: the organizations waiting (a distinct scan of this index), then each
// one's oldest ({ orgId, _id: ascending }).
outboxSchema.index({ orgId: 1, _id: 1 });

export function outboxModel(connection: Connection): Model<OutboxDoc> {
  return registeredModel(connection, 'OutboxEvent', outboxSchema, 'outbox');
}
