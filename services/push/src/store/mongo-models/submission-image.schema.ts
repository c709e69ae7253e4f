import { Schema, type Connection, type Model, type mongo } from 'mongoose';
import { registeredModel, requiredField } from '@formcast/storage';
import type { SubmissionImage } from '../submission-image-store';

/** A submission image's record; its bytes are the GridFS file `fileId` of the `submission_image_files` bucket. */
export interface SubmissionImageDoc extends Omit<SubmissionImage, 'uuid'> {
  _id: string;
  fileId: mongo.ObjectId;
}

export const submissionImageSchema = new Schema<SubmissionImageDoc>(
  {
    _id: requiredField(String),
    orgId: requiredField(Number),
    deviceId: requiredField(Number),
    deviceIdentifier: requiredField(String),
    imageIdentifier: requiredField(String),
    submissionIdentifier: requiredField(String),
    contentType: requiredField(String),
    size: requiredField(Number),
    md5: requiredField(String),
    createdAt: requiredField(String),
    fileId: requiredField(Schema.Types.ObjectId),
  },
  { versionKey: false },
);

// An upload and get_md5: the device's image by its identifier, one per identifier.
submissionImageSchema.index({ orgId: 1, deviceId: 1, imageIdentifier: 1 }, { unique: true });
// The download: by _id (the uuid), orgId checked on the one document.

export function submissionImageModel(connection: Connection): Model<SubmissionImageDoc> {
  return registeredModel(connection, 'SubmissionImage', submissionImageSchema, 'submission_images');
}
