import { Schema } from 'mongoose';
import type { Organization, OrganizationSecret } from '../../domain/records';
import { idField, requiredField, type MongoDoc } from '@formcast/storage';

export type OrganizationDoc = MongoDoc<Organization & OrganizationSecret, 'createdAt'>;

export const organizationSchema = new Schema<OrganizationDoc>(
  {
    ...idField,
    name: { type: String, default: '' },
    enrollmentCodeHash: requiredField(String),
    createdAt: requiredField(Date),
  },
  { versionKey: false },
);

// organizations.findByEnrollmentCodeHash (device enrollment); one organization per code.
// Sparse: a database of an older release holds codes in clear (`enrollmentCode`, no hash)
// until moveLegacyDirectoryShapes hashes them at start, and the index is built before that.
organizationSchema.index({ enrollmentCodeHash: 1 }, { unique: true, sparse: true });
