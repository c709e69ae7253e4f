import { Schema } from 'mongoose';
import { requiredField } from '@formcast/storage';
import { appliedCommandWindowMs } from '../applied-commands';

/**
 * A create the store applied lately (a form, groups), written in the create's transaction.
 * `_id` is the command envelope's id: of two duplicates racing each other, only one commits.
 */
export interface AppliedCommandDoc {
  _id: string;
  orgId: number;
  /** What the create made, in order: what a repeat answers from. */
  createdIds: number[];
  appliedAt: Date;
}

export const appliedCommandSchema = new Schema<AppliedCommandDoc>(
  {
    _id: requiredField(String),
    orgId: requiredField(Number),
    createdIds: { type: [Number], required: true },
    appliedAt: requiredField(Date),
  },
  { versionKey: false },
);

// Forgotten by MongoDB's TTL monitor once the window has passed (see appliedCommandWindowMs).
appliedCommandSchema.index({ appliedAt: 1 }, { expireAfterSeconds: appliedCommandWindowMs / 1000 });
