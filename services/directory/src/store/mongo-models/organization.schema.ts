import { Schema, type Connection, type Model } from 'mongoose';

export interface OrganizationDoc {
  _id: number;
  name: string;
  enrollmentCode: string;
  createdAt: Date;
}

export const organizationSchema = new Schema<OrganizationDoc>(
  {
    _id: { type: Number, required: true },
    name: { type: String, default: '' },
    enrollmentCode: { type: String, required: true },
    createdAt: { type: Date, required: true },
  },
  { versionKey: false },
);

// findOrganizationByEnrollmentCode (device enrollment); one organization per code.
organizationSchema.index({ enrollmentCode: 1 }, { unique: true });

export function organizationModel(connection: Connection): Model<OrganizationDoc> {
  return (
    (connection.models.Organization as Model<OrganizationDoc> | undefined) ??
    connection.model<OrganizationDoc>('Organization', organizationSchema, 'organizations')
  );
}
