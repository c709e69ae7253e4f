import { Schema, type Connection, type Model, type mongo } from 'mongoose';
import { registeredModel } from '@formcast/storage';
import type { SubmissionImage } from '../submission-image-store';

/** A submission image's record; its bytes are the GridFS file `fileId` of the `submission_image_files` bucket. */
export interface SubmissionImageDoc extends Omit<SubmissionImage, 'uuid'> {
  _id: string;
  fileId: mongo.ObjectId;
}

export const submissionImageSchema = new Schema<SubmissionImageDoc>(
  {
    _id: { type: String, required: true },
    orgId: { type: Number, required: true },
    deviceId: { type: Number, required: true },
    deviceIdentifier: { type: String, required: true },
    imageIdentifier: { type: String, required: true },
    submissionIdentifier: { type: String, required: true },
    contentType: { type: String, required: true },
    size: { type: Number, required: true },
    md5: { type: String, required: true },
    createdAt: { type: String, required: true },
    fileId: { type: Schema.Types.ObjectId, required: true },
  },
  { versionKey: false },
);

// An upload and get_md5: the device's image by its identifier, one per identifier.
submissionImageSchema.index({ orgId: 1, deviceId: 1, imageIdentifier: 1 }, { unique: true });
// The download: by _id (the uuid), orgId checked on the one document.

export function submissionImageModel(connection: Connection): Model<SubmissionImageDoc> {
  return registeredModel(connection, 'SubmissionImage', submissionImageSchema, 'submission_images');
}
