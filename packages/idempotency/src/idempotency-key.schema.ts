import { Schema, type Connection, type Model } from 'mongoose';
import { registeredModel, requiredField } from '@formcast/storage';

/** An idempotency key of an organization, in the owning service's database. */
export interface IdempotencyKeyDoc {
  orgId: number;
  key: string;
  fingerprint: string;
  commandId: string;
  createdAt: Date;
  claimedAt: Date;
  /** createdAt + 24 h: MongoDB's TTL monitor deletes the key after it (within a minute or so). */
  expiresAt: Date;
  /** The StoredReply as JSON (a value's field names are the caller's, never MongoDB's concern); null until completed. */
  reply: string | null;
}

export const idempotencyKeySchema = new Schema<IdempotencyKeyDoc>(
  {
    orgId: requiredField(Number),
    key: requiredField(String),
    fingerprint: requiredField(String),
    commandId: requiredField(String),
    createdAt: requiredField(Date),
    claimedAt: requiredField(Date),
    expiresAt: requiredField(Date),
    reply: { type: String, default: null },
  },
  { versionKey: false },
);

// A claim's lookup, and the one key per organization two racing claims meet at.
idempotencyKeySchema.index({ orgId: 1, key: 1 }, { unique: true });
// Expiry: deleted by MongoDB once expiresAt has passed; `prune` finds them by it too.
idempotencyKeySchema.index({ expiresAt: 1 }, { expireAfterSeconds: 0 });

export function idempotencyKeyModel(connection: Connection): Model<IdempotencyKeyDoc> {
  return registeredModel(connection, 'IdempotencyKey', idempotencyKeySchema, 'idempotency_keys');
}
