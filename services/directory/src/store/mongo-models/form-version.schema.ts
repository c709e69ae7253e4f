import { Schema } from 'mongoose';
import { requiredField } from '@formcast/storage';
import type { FormVersion } from '../../domain/records';

/** A definition a form had before its current one (form.md's `?version=`); see FormStore.getVersion. */
export type FormVersionDoc = FormVersion & { orgId: number; formId: number; replacedAt: Date };

export const formVersionSchema = new Schema<FormVersionDoc>(
  {
    orgId: requiredField(Number),
    formId: requiredField(Number),
    revision: requiredField(Number),
    name: { type: String, default: '' },
    definition: requiredField(Schema.Types.Mixed),
    replacedAt: requiredField(Date),
  },
  // minimize off: an empty object inside a definition is content, not absence.
  { versionKey: false, minimize: false },
);

// forms.getVersion; one document per revision of a form; a form's versions (deleted with it).
formVersionSchema.index({ orgId: 1, formId: 1, revision: 1 }, { unique: true });
