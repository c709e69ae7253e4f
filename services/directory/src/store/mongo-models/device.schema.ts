import { Schema, type Connection, type Model } from 'mongoose';

export interface DeviceDoc {
  _id: number;
  orgId: number;
  identifier: string;
  owner: string;
  description: string;
  pendingApproval: boolean;
  pushToken: string | null;
  secretHash: string;
  /** The groups it is in, ascending: group membership lives here. */
  groupIds: number[];
  createdAt: Date;
}

export const deviceSchema = new Schema<DeviceDoc>(
  {
    _id: { type: Number, required: true },
    orgId: { type: Number, required: true },
    identifier: { type: String, required: true },
    owner: { type: String, default: '' },
    description: { type: String, default: '' },
    pendingApproval: { type: Boolean, required: true },
    pushToken: { type: String, default: null },
    secretHash: { type: String, required: true },
    groupIds: { type: [Number], default: [] },
    createdAt: { type: Date, required: true },
  },
  { versionKey: false },
);

// findDeviceByIdentifier and enrollment; an identifier is enrolled once across organizations.
deviceSchema.index({ identifier: 1 }, { unique: true });
// findDeviceBySecretHash (device authentication).
deviceSchema.index({ secretHash: 1 }, { unique: true });
// listDevices (with or without the approvedOnly filter), ascending by id.
deviceSchema.index({ orgId: 1, _id: 1 });
// A group's devices (getGroup, updateGroup, deleteGroup).
deviceSchema.index({ orgId: 1, groupIds: 1 });

export function deviceModel(connection: Connection): Model<DeviceDoc> {
  return (
    (connection.models.Device as Model<DeviceDoc> | undefined) ??
    connection.model<DeviceDoc>('Device', deviceSchema, 'devices')
  );
}
