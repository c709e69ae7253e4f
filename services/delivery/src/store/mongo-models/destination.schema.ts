import { Schema, type Connection, type Model } from 'mongoose';
import { registeredModel } from '@formcast/storage';
import type { DestinationTransport } from '@formcast/contracts';
import type { Destination } from '../../domain/records';

/**
 * A destination; times as dates. Its transport's parameters are kept as their JSON text:
 * header names may hold `.` and `$`, which MongoDB field names cannot carry safely.
 */
export type DestinationDoc = Omit<
  Destination,
  'id' | 'formatParameters' | 'transport' | 'secrets' | 'deactivatedAt' | 'failingSince' | 'createdAt' | 'updatedAt' | 'formatUpdatedAt' | 'transportUpdatedAt'
> & {
  _id: number;
  /** JSON text, as the transport's; absent on documents older than the document formats. */
  formatParameters?: string;
  formatUpdatedAt?: Date | null;
  transportType: DestinationTransport;
  transportParameters: string;
  transportUpdatedAt?: Date | null;
  secret: string;
  retiredSecrets: Array<{ secret: string; expiresAt: Date }>;
  deactivatedAt: Date | null;
  failingSince: Date | null;
  /** The create's command id, and the last rotation's (see DeliveryStore). */
  commandId: string;
  rotationCommandId: string | null;
  createdAt: Date;
  updatedAt: Date;
};

const retiredSecretSchema = new Schema<{ secret: string; expiresAt: Date }>(
  { secret: { type: String, required: true }, expiresAt: { type: Date, required: true } },
  { _id: false },
);

export const destinationSchema = new Schema<DestinationDoc>(
  {
    _id: { type: Number, required: true },
    orgId: { type: Number, required: true },
    formId: { type: Number, required: true },
    description: { type: String, default: null },
    active: { type: Boolean, required: true },
    format: { type: String, required: true },
    transportType: { type: String, required: true },
    transportParameters: { type: String, required: true },
    formatParameters: { type: String, default: '{}' },
    formatUpdatedAt: { type: Date, default: null },
    transportUpdatedAt: { type: Date, default: null },
    secret: { type: String, required: true },
    retiredSecrets: { type: [retiredSecretSchema], default: [] },
    deactivatedReason: { type: String, default: null },
    deactivatedAt: { type: Date, default: null },
    failingSince: { type: Date, default: null },
    commandId: { type: String, required: true },
    rotationCommandId: { type: String, default: null },
    createdAt: { type: Date, required: true },
    updatedAt: { type: Date, required: true },
  },
  { versionKey: false },
);

// A form's destinations, ascending by id (and the active ones a submission goes to).
destinationSchema.index({ orgId: 1, formId: 1, _id: 1 });
// A redelivered create finds the destination it made; two at once meet here.
destinationSchema.index({ orgId: 1, commandId: 1 }, { unique: true });

export function destinationModel(connection: Connection): Model<DestinationDoc> {
  return registeredModel(connection, 'Destination', destinationSchema, 'destinations');
}
