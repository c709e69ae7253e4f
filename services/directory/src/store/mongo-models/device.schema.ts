import { Schema } from 'mongoose';
import type { Device, DeviceSecret } from '../../domain/records';
import { orgScopedFields, requiredField, type MongoDoc } from '@formcast/storage';

/** One custom attribute. */
export interface CustomAttributeDoc {
  key: string;
  value: string;
}

/**
 * `groupIds`, the groups it is in (ascending): group membership lives here. Custom
 * attributes are a list of key/value pairs, not an object: a name may hold `.` or start with
 * `$`, which MongoDB field names (and mongoose maps) cannot. Documents of releases before
 * issue 15 have neither the versions nor the attributes (read as null and none).
 */
export type DeviceDoc = Omit<MongoDoc<Device & DeviceSecret, 'createdAt'>, 'customAttributes'> & {
  customAttributes: CustomAttributeDoc[];
};

const customAttributeSchema = new Schema<CustomAttributeDoc>(
  { key: requiredField(String), value: { type: String, default: '' } },
  { _id: false },
);

export const deviceSchema = new Schema<DeviceDoc>(
  {
    ...orgScopedFields,
    identifier: requiredField(String),
    owner: { type: String, default: '' },
    description: { type: String, default: '' },
    pendingApproval: requiredField(Boolean),
    pushToken: { type: String, default: null },
    secretHash: requiredField(String),
    groupIds: { type: [Number], default: [] },
    osVersion: { type: String, default: null },
    appIdentifier: { type: String, default: null },
    appVersion: { type: String, default: null },
    customAttributes: { type: [customAttributeSchema], default: [] },
    createdAt: requiredField(Date),
  },
  { versionKey: false },
);

// devices.findByIdentifier; an identifier is enrolled once in an organization (another
// organization may have it too, and nothing tells one of the other).
deviceSchema.index({ orgId: 1, identifier: 1 }, { unique: true });
// devices.findBySecretHash (device authentication); a secret belongs to one device.
deviceSchema.index({ secretHash: 1 }, { unique: true });
// devices.list (with or without the approvedOnly filter), ascending by id.
deviceSchema.index({ orgId: 1, _id: 1 });
// A group's devices (groups.get, update, delete).
deviceSchema.index({ orgId: 1, groupIds: 1 });
