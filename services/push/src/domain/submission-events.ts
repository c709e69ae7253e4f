import { createEnvelope, submissionEvents, type Envelope, type SubmissionReceivedPayload } from '@formcast/contracts';
import type { Submission } from './records';

/** Builds a submission's event; the store calls it inside the write, with the submission as saved (with its id). */
export type SubmissionEventFactory = (submission: Submission) => Envelope<SubmissionReceivedPayload>;

export function submissionReceivedEvent(requestId: string): SubmissionEventFactory {
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
        answers: submission.answers,
      },
      { orgId: submission.orgId, requestId },
    );
}
