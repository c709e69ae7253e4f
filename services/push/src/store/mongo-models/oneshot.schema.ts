import { Schema, type Connection, type Model } from 'mongoose';
import type { OneshotState } from '../../domain/records';

export interface OneshotDoc {
  _id: number;
  orgId: number;
  deviceId: number;
  deviceIdentifier: string;
  formId: number;
  templateNamespace: string;
  namespace: string;
  name: string;
  description: string;
  payload: Record<string, unknown>;
  state: OneshotState;
  createdAt: Date;
  updatedAt: Date;
}

export const oneshotSchema = new Schema<OneshotDoc>(
  {
    _id: { type: Number, required: true },
    orgId: { type: Number, required: true },
    deviceId: { type: Number, required: true },
    deviceIdentifier: { type: String, required: true },
    formId: { type: Number, required: true },
    templateNamespace: { type: String, required: true },
    namespace: { type: String, required: true },
    // Not `required`: mongoose's required refuses '', which is a value here.
    name: { type: String, default: '' },
    description: { type: String, default: '' },
    payload: { type: Schema.Types.Mixed, required: true },
    state: { type: String, required: true, enum: ['outstanding', 'revoked', 'completed'] },
    createdAt: { type: Date, required: true },
    updatedAt: { type: Date, required: true },
  },
  // minimize off: an empty object in a payload (or an empty payload) is content, not absence.
  { versionKey: false, minimize: false },
);

// listOutstandingForDevice (ascending by id), revokeAll, and the device's outstanding count
// written into every event.
oneshotSchema.index({ orgId: 1, deviceId: 1, state: 1, _id: 1 });
// streamOutstandingForOrganization: pages of `_id > last`, ascending.
oneshotSchema.index({ orgId: 1, state: 1, _id: 1 });

export function oneshotModel(connection: Connection): Model<OneshotDoc> {
  return (
    (connection.models.Oneshot as Model<OneshotDoc> | undefined) ??
    connection.model<OneshotDoc>('Oneshot', oneshotSchema, 'oneshots')
  );
}
