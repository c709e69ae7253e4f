import { Schema, type Connection, type Model } from 'mongoose';
import { registeredModel, requiredField } from '@formcast/storage';
import type { Envelope } from '@formcast/contracts';

/** A submission waiting for the images it names: its `received` event is held here until the last one is stored. `_id`: the submission id. */
export interface SubmissionImageWaitDoc {
  _id: number;
  orgId: number;
  deviceId: number;
  /** Every image identifier the submission names. */
  named: string[];
  /** Those not yet stored. */
  awaiting: string[];
  event: Envelope;
}

export const submissionImageWaitSchema = new Schema<SubmissionImageWaitDoc>(
  {
    _id: requiredField(Number),
    orgId: requiredField(Number),
    deviceId: requiredField(Number),
    named: { type: [String], required: true },
    awaiting: { type: [String], required: true },
    event: requiredField(Schema.Types.Mixed),
  },
  { versionKey: false, minimize: false },
);

// An image save: the device's submissions waiting for that identifier.
submissionImageWaitSchema.index({ orgId: 1, deviceId: 1, awaiting: 1 });

export function submissionImageWaitModel(connection: Connection): Model<SubmissionImageWaitDoc> {
  return registeredModel(connection, 'SubmissionImageWait', submissionImageWaitSchema, 'submission_image_waits');
}

/**
 * One document per device that submitted or uploaded images (`_id`: `<orgId>:<deviceId>`),
 * written by both a submission naming images and an image save, inside their transactions:
 * two such transactions of one device then conflict and MongoDB retries one, so neither
 * decides on what the other has not yet committed (a submission and its last image never
 * miss each other).
 */
export interface SubmissionImageEpochDoc {
  _id: string;
  n: number;
}

export const submissionImageEpochSchema = new Schema<SubmissionImageEpochDoc>(
  { _id: requiredField(String), n: requiredField(Number) },
  { versionKey: false },
);

export function submissionImageEpochModel(connection: Connection): Model<SubmissionImageEpochDoc> {
  return registeredModel(connection, 'SubmissionImageEpoch', submissionImageEpochSchema, 'submission_image_epochs');
}
