import { Schema } from 'mongoose';
import type { Form } from '../../domain/records';
import { orgScopedFields, requiredField, type MongoDoc } from '@formcast/storage';

export type FormDoc = MongoDoc<Form, 'createdAt' | 'updatedAt'>;

export const formSchema = new Schema<FormDoc>(
  {
    ...orgScopedFields,
    groupId: requiredField(Number),
    name: { type: String, default: '' },
    namespace: requiredField(String),
    description: { type: String, default: '' },
    revision: requiredField(Number),
    locked: { type: Boolean, default: false },
    definition: requiredField(Schema.Types.Mixed),
    createdAt: requiredField(Date),
    updatedAt: requiredField(Date),
  },
  // minimize off: an empty object inside a definition is content, not absence.
  { versionKey: false, minimize: false },
);

// forms.findByNamespace; one form per namespace in an organization.
formSchema.index({ orgId: 1, namespace: 1 }, { unique: true });
// forms.list, ascending by id.
formSchema.index({ orgId: 1, _id: 1 });
// A group's forms (groups.get, update, delete).
formSchema.index({ orgId: 1, groupId: 1 });
