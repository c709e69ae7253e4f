import { loadMongoIdempotency } from '@formcast/idempotency';
import type { Connection } from 'mongoose';
import { appliedCommandModel } from './applied-command.schema';
import { oneshotModel } from './oneshot.schema';
import { outboxModel } from './outbox.schema';
import { submissionImageModel } from './submission-image.schema';
import { submissionImageEpochModel, submissionImageWaitModel } from './submission-image-wait.schema';
import { submissionModel } from './submission.schema';

export type { AppliedCommandDoc } from './applied-command.schema';
export type { OneshotDoc } from './oneshot.schema';
export type { OutboxDoc } from './outbox.schema';
export type { SubmissionDoc } from './submission.schema';
export type { SubmissionImageDoc } from './submission-image.schema';
export type { SubmissionImageEpochDoc, SubmissionImageWaitDoc } from './submission-image-wait.schema';

/**
 * The push service's models on one connection, registered there once. With them the
 * Idempotency-Keys of the push database, so they are created before the first transaction
 * writes one and the store's start builds their unique and TTL indexes (see MongoStore.start).
 */
export function pushModels(connection: Connection) {
  return {
    IdempotencyKey: loadMongoIdempotency().idempotencyKeyModel(connection),
    Oneshot: oneshotModel(connection),
    Submission: submissionModel(connection),
    Outbox: outboxModel(connection),
    AppliedCommand: appliedCommandModel(connection),
    SubmissionImage: submissionImageModel(connection),
    SubmissionImageWait: submissionImageWaitModel(connection),
    SubmissionImageEpoch: submissionImageEpochModel(connection),
  };
}

export type PushModels = ReturnType<typeof pushModels>;
