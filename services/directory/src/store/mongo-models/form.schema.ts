import { Schema, type Connection, type Model } from 'mongoose';
import type { FormDefinition } from '../../domain/records';

export interface FormDoc {
  _id: number;
  orgId: number;
  groupId: number;
  name: string;
  namespace: string;
  description: string;
  revision: number;
  definition: FormDefinition;
  createdAt: Date;
  updatedAt: Date;
}

export const formSchema = new Schema<FormDoc>(
  {
    _id: { type: Number, required: true },
    orgId: { type: Number, required: true },
    groupId: { type: Number, required: true },
    name: { type: String, default: '' },
    namespace: { type: String, required: true },
    description: { type: String, default: '' },
    revision: { type: Number, required: true },
    definition: { type: Schema.Types.Mixed, required: true },
    createdAt: { type: Date, required: true },
    updatedAt: { type: Date, required: true },
  },
  // minimize off: an empty object inside a definition is content, not absence.
  { versionKey: false, minimize: false },
);

// findFormByNamespace and the namespace check; one form per namespace in an organization.
formSchema.index({ orgId: 1, namespace: 1 }, { unique: true });
// listForms, ascending by id.
formSchema.index({ orgId: 1, _id: 1 });
// A group's forms (getGroup, updateGroup, deleteGroup).
formSchema.index({ orgId: 1, groupId: 1 });

export function formModel(connection: Connection): Model<FormDoc> {
  return (
    (connection.models.Form as Model<FormDoc> | undefined) ??
    connection.model<FormDoc>('Form', formSchema, 'forms')
  );
}
