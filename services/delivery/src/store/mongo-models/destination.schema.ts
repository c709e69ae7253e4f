import { Schema, type Connection, type Model } from 'mongoose';
import { registeredModel, requiredField } from '@formcast/storage';
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
  { secret: requiredField(String), expiresAt: requiredField(Date) },
  { _id: false },
);

export const destinationSchema = new Schema<DestinationDoc>(
  {
    _id: requiredField(Number),
    orgId: requiredField(Number),
    formId: requiredField(Number),
    description: { type: String, default: null },
    active: requiredField(Boolean),
    format: requiredField(String),
    transportType: requiredField(String),
    transportParameters: requiredField(String),
    formatParameters: { type: String, default: '{}' },
    formatUpdatedAt: { type: Date, default: null },
    transportUpdatedAt: { type: Date, default: null },
    secret: requiredField(String),
    retiredSecrets: { type: [retiredSecretSchema], default: [] },
    deactivatedReason: { type: String, default: null },
    deactivatedAt: { type: Date, default: null },
    failingSince: { type: Date, default: null },
    commandId: requiredField(String),
    rotationCommandId: { type: String, default: null },
    createdAt: requiredField(Date),
    updatedAt: requiredField(Date),
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
