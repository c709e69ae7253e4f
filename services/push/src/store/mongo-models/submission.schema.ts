import { Schema, type Connection, type Model } from 'mongoose';

/** What the device answered when it completed a oneshot; `_id` is the oneshot's id. */
export interface SubmissionDoc {
  _id: number;
  orgId: number;
  deviceId: number;
  answers: Record<string, unknown>;
  submittedAt: Date;
}

export const submissionSchema = new Schema<SubmissionDoc>(
  {
    _id: { type: Number, required: true },
    orgId: { type: Number, required: true },
    deviceId: { type: Number, required: true },
    answers: { type: Schema.Types.Mixed, required: true },
    submittedAt: { type: Date, required: true },
  },
  { versionKey: false, minimize: false },
);

// getSubmission looks up { _id, orgId }: the _id index serves it; no other index.

export function submissionModel(connection: Connection): Model<SubmissionDoc> {
  return (
    (connection.models.Submission as Model<SubmissionDoc> | undefined) ??
    connection.model<SubmissionDoc>('Submission', submissionSchema, 'submissions')
  );
}
