import { Schema, type Connection, type Model } from 'mongoose';
import type { Oneshot } from '../../domain/records';
import { registeredModel, requiredField, type MongoDoc } from '@formcast/storage';

export type OneshotDoc = MongoDoc<Oneshot, 'createdAt' | 'updatedAt' | 'scheduledAt' | 'releasedAt'>;

export const oneshotSchema = new Schema<OneshotDoc>(
  {
    _id: requiredField(Number),
    orgId: requiredField(Number),
    deviceId: requiredField(Number),
    deviceIdentifier: requiredField(String),
    formId: requiredField(Number),
    templateNamespace: requiredField(String),
    namespace: requiredField(String),
    // Not `required`: mongoose's required refuses '', which is a value here.
    name: { type: String, default: '' },
    description: { type: String, default: '' },
    payload: requiredField(Schema.Types.Mixed),
    state: { type: String, required: true, enum: ['outstanding', 'revoked', 'completed'] },
    createdAt: requiredField(Date),
    updatedAt: requiredField(Date),
    // Dispatch fields (issue 14). releasedAt is null (the value, not a missing field) only for
    // a dispatch waiting for its time: documents kept from before it have none, and were released.
    formVersion: { type: String, default: '' },
    scheduledAt: { type: Date, default: null },
    releasedAt: { type: Date, default: null },
    location: { type: String, default: null },
    address: { type: String, default: null },
    geofenceRadius: { type: Number, default: null },
  },
  // minimize off: an empty object in a payload (or an empty payload) is content, not absence.
  { versionKey: false, minimize: false },
);

// listOutstandingForDevice (ascending by id) and revokeAll.
oneshotSchema.index({ orgId: 1, deviceId: 1, state: 1, _id: 1 });
// streamOutstandingForOrganization: pages of `_id > last`, ascending; listDispatches.
oneshotSchema.index({ orgId: 1, state: 1, _id: 1 });
// listDue: the unreleased outstanding ones, by scheduled time (few: only those scheduled for later).
oneshotSchema.index({ scheduledAt: 1, _id: 1 }, { partialFilterExpression: { state: 'outstanding', releasedAt: { $type: 'null' } } });

export function oneshotModel(connection: Connection): Model<OneshotDoc> {
  return registeredModel(connection, 'Oneshot', oneshotSchema, 'oneshots');
}
