import { createEnvelope, submissionEvents, type Envelope, type SubmissionReceivedPayload } from '@formcast/contracts';
import type { Submission } from './records';
import { answersInFormOrder } from './submission-instance';

/** Builds a submission's event; the store calls it inside the write, with the submission as saved (with its id). */
export type SubmissionEventFactory = (submission: Submission) => Envelope<SubmissionReceivedPayload>;

/**
 * The answers go in the order of the form's `questions` (null: as stored), so a consumer
 * writing them (delivery's XML and JSON bodies) writes them as `GET /api/v3/submissions/<id>` shows them.
 */
export function submissionReceivedEvent(requestId: string, questions: unknown[] | null = null, destinationIds?: number[]): SubmissionEventFactory {
  return ({ id, ...submission }) =>
    createEnvelope<SubmissionReceivedPayload>(
      submissionEvents.submissionReceived,
      {
        submissionId: id,
        orgId: submission.orgId,
        deviceId: submission.deviceId,
        deviceIdentifier: submission.deviceIdentifier,
        deviceOwner: submission.deviceOwner,
        formId: submission.formId,
        formName: submission.formName,
        formNamespace: submission.formNamespace,
        formVersion: submission.formVersion,
        oneshotId: submission.oneshotId,
        clientSubmissionId: submission.clientSubmissionId,
        submittedAt: submission.submittedAt,
        receivedAt: submission.receivedAt,
        answers: answersInFormOrder(submission.answers, questions),
        ...(destinationIds === undefined ? {} : { destinationIds }),
      },
      { orgId: submission.orgId, requestId },
    );
}

/** A submission image as its event names it. */
export interface AnnouncedImage {
  imageIdentifier: string;
  uuid: string;
  contentType: string;
  size: number;
  md5: string;
}

/** The `received` event with the images its submission names, once they are all stored (the store calls it then). */
export function withSubmissionImages(event: Envelope<SubmissionReceivedPayload>, images: AnnouncedImage[]): Envelope<SubmissionReceivedPayload> {
  return {
    ...event,
    payload: {
      ...event.payload,
      images: images.map((image) => ({
        image_identifier: image.imageIdentifier,
        uuid: image.uuid,
        content_type: image.contentType,
        size: image.size,
        md5: image.md5,
      })),
    },
  };
}
