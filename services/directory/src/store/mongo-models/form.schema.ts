import { Schema } from 'mongoose';
import type { Form } from '../../domain/records';
import { orgScopedFields, type MongoDoc } from '@formcast/storage';

export type FormDoc = MongoDoc<Form, 'createdAt' | 'updatedAt'>;

export const formSchema = new Schema<FormDoc>(
  {
    ...orgScopedFields,
    groupId: { type: Number, required: true },
    name: { type: String, default: '' },
    namespace: { type: String, required: true },
    description: { type: String, default: '' },
    revision: { type: Number, required: true },
    locked: { type: Boolean, default: false },
    definition: { type: Schema.Types.Mixed, required: true },
    createdAt: { type: Date, required: true },
    updatedAt: { type: Date, required: true },
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
