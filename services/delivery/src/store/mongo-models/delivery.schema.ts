import { Schema, type Connection, type Model } from 'mongoose';
import { registeredModel, requiredField } from '@formcast/storage';
import type { Delivery, DeliveryAttempt } from '../../domain/records';

/** An attempt, kept inside its delivery (the newest `attemptsKeptPerDelivery`). */
export type AttemptDoc = Omit<DeliveryAttempt, 'deliveryId' | 'attemptedAt'> & { attemptedAt: Date };

/** A delivery with its lease (`claimedUntil`, `claimToken`: see DeliveryStore) and its attempts; times as dates. */
export type DeliveryDoc = Omit<Delivery, 'id' | 'nextAttemptAt' | 'createdAt' | 'updatedAt'> & {
  _id: number;
  nextAttemptAt: Date | null;
  claimedUntil: Date;
  claimToken: string | null;
  attempts: AttemptDoc[];
  createdAt: Date;
  updatedAt: Date;
};

const attemptSchema = new Schema<AttemptDoc>(
  {
    attemptedAt: requiredField(Date),
    statusCode: { type: Number, default: null },
    durationMs: requiredField(Number),
    responseBody: { type: String, default: null },
    error: { type: String, default: null },
  },
  { _id: false },
);

export const deliverySchema = new Schema<DeliveryDoc>(
  {
    _id: requiredField(Number),
    orgId: requiredField(Number),
    formId: requiredField(Number),
    destinationId: requiredField(Number),
    submissionId: requiredField(Number),
    webhookId: requiredField(String),
    contentType: requiredField(String),
    body: { type: String, default: '' },
    status: { type: String, required: true, enum: ['pending', 'succeeded', 'failed'] },
    scheduleStep: requiredField(Number),
    nextAttemptAt: { type: Date, default: null },
    claimedUntil: requiredField(Date),
    claimToken: { type: String, default: null },
    attempts: { type: [attemptSchema], default: [] },
    createdAt: requiredField(Date),
    updatedAt: requiredField(Date),
  },
  { versionKey: false },
);

// One delivery per destination and submission, however often the event comes.
deliverySchema.index({ destinationId: 1, submissionId: 1 }, { unique: true });
// What is due; what is leased (attempts under way).
deliverySchema.index({ status: 1, nextAttemptAt: 1 });
deliverySchema.index({ status: 1, claimedUntil: 1 });
// A destination's log, newest first.
deliverySchema.index({ destinationId: 1, _id: -1 });
// The performance metric report (report.md): an organization's deliveries of a month, in order.
deliverySchema.index({ orgId: 1, createdAt: 1, _id: 1 });
// The retention sweep: ended deliveries by the time they ended.
deliverySchema.index({ status: 1, updatedAt: 1 });

export function deliveryModel(connection: Connection): Model<DeliveryDoc> {
  return registeredModel(connection, 'Delivery', deliverySchema, 'deliveries');
}
