import { Schema, type Connection, type Model } from 'mongoose';
import { orgScopedFields, registeredModel, requiredField, type MongoDoc } from '@formcast/storage';
import type { Submission } from '../../domain/records';

/** A submission, under its own id (from the `submissions` counter). */
export type SubmissionDoc = MongoDoc<Submission, 'submittedAt' | 'receivedAt'>;

export const submissionSchema = new Schema<SubmissionDoc>(
  {
    ...orgScopedFields,
    deviceId: requiredField(Number),
    deviceIdentifier: requiredField(String),
    // Not `required`: mongoose's required refuses '', which is a value here.
    deviceOwner: { type: String, default: '' },
    formId: requiredField(Number),
    formNamespace: requiredField(String),
    formName: { type: String, default: '' },
    formVersion: { type: String, default: '' },
    oneshotId: { type: Number, default: null },
    clientSubmissionId: { type: String, default: null },
    answers: requiredField(Schema.Types.Mixed),
    submittedAt: requiredField(Date),
    receivedAt: requiredField(Date),
  },
  // minimize off: an empty object in the answers is content, not absence.
  { versionKey: false, minimize: false },
);

// A oneshot is completed once; a client id is one submission per device (and the loads of `submit`).
submissionSchema.index({ orgId: 1, oneshotId: 1 }, { unique: true, partialFilterExpression: { oneshotId: { $type: 'number' } } });
submissionSchema.index(
  { orgId: 1, deviceId: 1, clientSubmissionId: 1 },
  { unique: true, partialFilterExpression: { clientSubmissionId: { $type: 'string' } } },
);
// listSubmissions: a form's, all or one device's, ascending by id.
submissionSchema.index({ orgId: 1, formId: 1, _id: 1 });
submissionSchema.index({ orgId: 1, formId: 1, deviceIdentifier: 1, _id: 1 });

export function submissionModel(connection: Connection): Model<SubmissionDoc> {
  return registeredModel(connection, 'FormSubmission', submissionSchema, 'form_submissions');
}
