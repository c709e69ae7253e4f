import { Schema, type Connection, type Model } from 'mongoose';
import { registeredModel, requiredField } from '@formcast/storage';

/**
 * A command the store applied lately (see CommandWindow), written in the transaction of
 * its change. `_id` is the command envelope's id: the unique index that lets only one of
 * two duplicates racing each other commit.
 */
export interface AppliedCommandDoc {
  _id: string;
  /** The oneshots the command changed (or created), in order, or the submission it stored: what a repeat answers from. */
  oneshotIds: number[];
  appliedAt: Date;
}

export const appliedCommandSchema = new Schema<AppliedCommandDoc>(
  {
    _id: requiredField(String),
    oneshotIds: { type: [Number], required: true },
    appliedAt: requiredField(Date),
  },
  { versionKey: false },
);

// Pruning: the oldest first, those applied before the window.
appliedCommandSchema.index({ appliedAt: 1 });

export function appliedCommandModel(connection: Connection): Model<AppliedCommandDoc> {
  return registeredModel(connection, 'AppliedCommand', appliedCommandSchema, 'applied_commands');
}
